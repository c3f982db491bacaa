/**
 * How the panel looks inside VS Code (issue 24, points 8-10), in Light, Dark and High Contrast,
 * with VS Code's own default webview stylesheet loaded first as VS Code does: a SQL block has no
 * grey strip behind its lines, a chart legend has no box around each entry, and the Enlarge
 * overlay hides the conversation behind it. Screenshots go to test-artifacts/looks-*.png.
 */
import { strict as assert } from 'node:assert';
import { renderChart } from '../../src/server/engine/charts';
import { fileKeyOf } from '../../src/shared/protocol';
import { answerOf, initMessage, respond, sampleAnswer, turnOf } from './builders';
import { THEMES, type ThemeName } from './fixtures/themes';
import { closeCleanly, PanelPage, usePanelBrowser } from './harness';

const IMAGE_KEY = fileKeyOf({ type: 'IMAGE', content: { url: 'https://files.example/i/chart.png?sig=1' } });
const THEME_NAMES: ThemeName[] = ['light', 'dark', 'highContrast'];

/** A bar chart with a colour legend of three entries. */
function legendChart(): Promise<string> {
  return renderChart({
    kind: 'bar', title: 'Revenue by region and year', x: 'region', y: 'revenue', color: 'year', xType: 'nominal',
    rows: [
      { region: 'Europe', revenue: 1200.5, year: '2023' }, { region: 'Europe', revenue: 1300, year: '2024' },
      { region: 'Asia', revenue: 900, year: '2023' }, { region: 'Asia', revenue: 950, year: '2025' },
    ],
  });
}

/** `#rrggbb` as the `rgb(r, g, b)` a computed style reports. */
function rgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${n >> 16}, ${(n >> 8) & 255}, ${n & 255})`;
}

describe('answer panel (browser): looks in VS Code\'s themes', function () {
  this.timeout(90_000);
  const env = usePanelBrowser();
  let panel: PanelPage | undefined;
  afterEach(async () => {
    await closeCleanly(panel);
    panel = undefined;
  });

  async function open(theme: ThemeName, svg: string): Promise<PanelPage> {
    const p = await PanelPage.open(env.browser, env.server, { theme, vscodeDefaults: true, width: 1100, height: 1000 });
    panel = p;
    await p.send(
      initMessage([turnOf('t1', 'Revenue by region and year', sampleAnswer('job-1'))], { resourceRoots: [`${env.server.origin}/cache/`] }),
      { type: 'imageData', turnId: 't1', fileKey: IMAGE_KEY, data: { status: 'ready', uri: `${env.server.origin}/cache/chart.png`, svg } },
    );
    await p.page.waitForSelector('.image-block svg.chart-svg');
    return p;
  }

  for (const theme of THEME_NAMES) {
    it(`${theme}: code in a SQL block or a fence has no background of its own`, async () => {
      const p = await open(theme, await legendChart());
      // The harness loads VS Code's stylesheet: its inline-code rule reaches inline code.
      const inline = await p.page.evaluate(() => {
        const probe = document.createElement('code');
        document.body.appendChild(probe);
        const s = getComputedStyle(probe);
        const looks = { background: s.backgroundColor, padding: s.paddingLeft };
        probe.remove();
        return looks;
      });
      // (High Contrast outlines inline code on the page's background instead: its own rule.)
      if (!theme.startsWith('highContrast')) assert.notEqual(inline.background, 'rgba(0, 0, 0, 0)', 'VS Code\'s default styles are loaded');
      assert.equal(inline.padding, '3px', 'VS Code\'s default inline-code rule is loaded');
      const looks = await p.page.evaluate(() => [...document.querySelectorAll('pre.code code.hljs, pre.md-code code.hljs')].map((c) => {
        const s = getComputedStyle(c);
        return { background: s.backgroundColor, padding: s.paddingLeft, font: s.fontFamily === getComputedStyle(c.parentElement as Element).fontFamily };
      }));
      assert.ok(looks.length >= 2, 'a SQL block and a fenced block are shown');
      for (const l of looks) assert.deepEqual(l, { background: 'rgba(0, 0, 0, 0)', padding: '0px', font: true });
      const block = await p.page.$eval('pre.code', (el) => getComputedStyle(el).backgroundColor);
      assert.equal(block, rgb(THEMES[theme].vars['--vscode-textCodeBlock-background'] ?? '#000000'), 'the block keeps its one background');
      await p.page.locator('.code-block').first().scrollIntoViewIfNeeded();
      await p.screenshot(`looks-sql-${theme}.png`);
    });

    it(`${theme}: only the plot frame of a chart is outlined, not the legend or its entries`, async () => {
      const p = await open(theme, await legendChart());
      const strokes = await p.page.evaluate(() => {
        const svg = document.querySelector('.image-block svg.chart-svg') as SVGSVGElement;
        const outlined = (sel: string): number => [...svg.querySelectorAll(sel)].filter((el) => getComputedStyle(el).stroke !== 'none').length;
        return {
          legend: outlined('.role-legend path.background'),
          entries: svg.querySelectorAll('.role-legend .role-legend-label text').length,
          frame: outlined('.role-frame.root > g > path.background'),
        };
      });
      assert.ok(strokes.entries >= 3, 'the legend has its entries');
      assert.equal(strokes.legend, 0, 'no box around the legend or any of its entries');
      assert.equal(strokes.frame, 1, 'the plot keeps its frame');
      await p.page.locator('.image-block').scrollIntoViewIfNeeded();
      await p.screenshot(`looks-legend-${theme}.png`);
    });

    it(`${theme}: the Enlarge overlay hides the conversation behind it`, async () => {
      const p = await open(theme, await legendChart());
      await p.page.click('.image-open');
      await p.page.waitForSelector('.overlay svg.chart-svg');
      const bg = await p.page.$eval('.overlay', (el) => getComputedStyle(el).backgroundColor);
      assert.equal(bg, rgb(THEMES[theme].vars['--vscode-editor-background'] ?? '#000000'), 'an opaque background in the editor\'s colour');
      await p.screenshot(`looks-enlarged-${theme}.png`);
      await p.page.keyboard.press('Escape');
    });
  }

  // Issue 24 walk: High Contrast pairs the preformat foreground with a light preformat background
  // (black on white in Dark HC, white on dark blue in Light HC); an outlined inline code without that
  // background must not keep that foreground, or the word vanishes into the page.
  for (const theme of ['highContrast', 'highContrastLight'] as const) {
    it(`${theme}: inline code in answer text, step titles and the question stays readable`, async () => {
      const p = await PanelPage.open(env.browser, env.server, { theme, vscodeDefaults: true, width: 900, height: 700 });
      panel = p;
      const answer = answerOf([
        { type: 'MESSAGE', content: 'Europe has the highest `revenue`; `region` has 4 values.\n\n| col | note |\n|---|---|\n| `revenue` | sum |\n', ...respond },
      ]);
      answer.groups.unshift({ id: 'a1', name: 'Read the question as: Total `revenue` by `region`', stage: 'Analyze', status: 'done', blocks: [] });
      await p.send(initMessage([turnOf('t1', 'total `revenue` by `region`', answer)], { settings: { collapseStepsWhenDone: false, wrapCode: false } }));
      await p.page.waitForSelector('.markdown code');
      const looks = await p.page.evaluate(() => {
        /** Relative luminance of `rgb(...)`/`rgba(...)`, or null for a transparent colour. */
        const parse = (c: string): number[] | null => {
          const m = /rgba?\(([^)]*)\)/.exec(c);
          if (!m) return null;
          const v = (m[1] ?? '').split(',').map((x) => Number.parseFloat(x));
          return v.length === 4 && v[3] === 0 ? null : v.slice(0, 3);
        };
        const lum = (v: number[]): number => {
          const [r, g, b] = v.map((x) => {
            const s = x / 255;
            return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
          }) as [number, number, number];
          return 0.2126 * r + 0.7152 * g + 0.0722 * b;
        };
        const page = parse(getComputedStyle(document.documentElement).getPropertyValue('--vscode-editor-background').trim().replace(/^#(..)(..)(..)$/, (_, r, g, b) => `rgb(${parseInt(r, 16)}, ${parseInt(g, 16)}, ${parseInt(b, 16)})`)) ?? [0, 0, 0];
        return [...document.querySelectorAll('.markdown code, .step-list code, .question code')].map((el) => {
          const s = getComputedStyle(el);
          const fg = parse(s.color) ?? [0, 0, 0];
          const bg = parse(s.backgroundColor) ?? page;
          const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a) as [number, number];
          return { where: el.closest('.markdown, .step-list, .question')?.className ?? '', text: el.textContent, contrast: Math.round(((hi + 0.05) / (lo + 0.05)) * 10) / 10 };
        });
      });
      assert.ok(looks.some((l) => l.where.includes('markdown')) && looks.some((l) => l.where.includes('step-list')) && looks.some((l) => l.where.includes('question')), JSON.stringify(looks));
      for (const l of looks) assert.ok(l.contrast >= 4.5, `readable inline code: ${JSON.stringify(l)}`);
      await p.screenshot(`looks-inline-code-${theme}.png`);
    });
  }
});
