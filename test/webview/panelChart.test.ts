/**
 * Charts in the answer panel (headless Chromium, real CSP): an SVG chart drawn by the local
 * service is shown inline in the theme's colours and follows a theme change; Enlarge scales a
 * chart, and a picture, to the view; a hostile drawing loses everything active.
 */
import { strict as assert } from 'node:assert';
import { renderChart } from '../../src/server/engine/charts';
import { fileKeyOf } from '../../src/shared/protocol';
import { initMessage, sampleAnswer, turnOf } from './builders';
import { THEMES, type ThemeName } from './fixtures/themes';
import { PanelPage, usePanelBrowser } from './harness';

const IMAGE_KEY = fileKeyOf({ type: 'IMAGE', content: { url: 'https://files.example/i/chart.png?sig=1' } });

function chartSvg(): Promise<string> {
  return renderChart({
    kind: 'bar', title: 'Revenue by region', x: 'region', y: 'revenue', xType: 'nominal',
    rows: [{ region: 'Europe', revenue: 1200.5 }, { region: 'Asia', revenue: 900 }, { region: 'Africa', revenue: 410 }],
  });
}

/** `#rrggbb` as the `rgb(r, g, b)` a computed style reports. */
function rgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${n >> 16}, ${(n >> 8) & 255}, ${n & 255})`;
}

describe('answer panel (browser): charts', function () {
  this.timeout(60_000);
  const env = usePanelBrowser();
  let panel: PanelPage | undefined;
  let inertParseReports = false;
  afterEach(async function () {
    if (panel) {
      assert.deepEqual(panel.pageErrors, [], 'no page errors');
      assert.deepEqual(panel.remoteRequests, [], 'no remote requests');
      // DOMPurify parses in an inert document that inherits the CSP and reports inline handlers and
      // styles it merely sees (nothing runs there): only the hostile drawing has any. A blocked load
      // or script element must never occur.
      const serious = (await panel.cspViolations()).filter((v) => !(inertParseReports && /^(script-src-attr|style-src-attr|style-src-elem) inline\b/.test(v)));
      assert.deepEqual(serious, [], 'no CSP violations');
      await panel.close();
      panel = undefined;
    }
    inertParseReports = false;
  });

  async function open(theme: ThemeName, svg: string | undefined, size = { width: 900, height: 900 }): Promise<PanelPage> {
    const p = await PanelPage.open(env.browser, env.server, { theme, ...size });
    panel = p;
    await p.send(
      initMessage([turnOf('t1', 'Revenue by region as a chart', sampleAnswer('job-1'))], { resourceRoots: [`${env.server.origin}/cache/`] }),
      { type: 'imageData', turnId: 't1', fileKey: IMAGE_KEY, data: { status: 'ready', uri: `${env.server.origin}/cache/chart.png`, ...(svg !== undefined ? { svg } : {}) } },
    );
    return p;
  }

  function chartColours(p: PanelPage): Promise<{ inline: boolean; img: boolean; text: string; background: string; bar: string; grid: string }> {
    return p.page.evaluate(() => {
      const svg = document.querySelector('.image-block svg.chart-svg');
      const style = (sel: string): CSSStyleDeclaration => getComputedStyle(svg?.querySelector(sel) as Element);
      return {
        inline: svg !== null,
        img: document.querySelector('.image-block img') !== null,
        text: svg ? style('.role-axis-label text').fill : '',
        background: svg ? style(':scope > rect').fill : '',
        bar: svg ? style('.mark-rect path').fill : '',
        grid: svg ? style('.role-axis-grid line').stroke : '',
      };
    });
  }

  it('draws an SVG chart inline in the theme\'s colours and follows a theme change', async () => {
    const p = await open('dark', await chartSvg());
    const dark = await chartColours(p);
    assert.equal(dark.inline, true, 'the chart is drawn inline');
    assert.equal(dark.img, false, 'not as a white image');
    assert.equal(dark.text, rgb('#cccccc'), 'labels in the theme\'s chart foreground');
    assert.equal(dark.background, 'rgba(0, 0, 0, 0)', 'no white background');
    assert.equal(dark.bar, rgb('#3794ff'), 'bars in the theme\'s chart blue');
    assert.equal(dark.grid, 'rgba(204, 204, 204, 0.5)', 'grid lines in the theme\'s chart lines colour');
    assert.equal(await p.page.getAttribute('.image-block svg.chart-svg', 'aria-label'), 'revenue chart');
    await p.screenshot('chart-dark.png');

    // VS Code changes the variables and the body class in place when the user switches theme.
    await p.page.evaluate((light) => {
      for (const [k, v] of Object.entries(light.vars)) document.documentElement.style.setProperty(k, v);
      document.body.classList.replace('vscode-dark', light.bodyClass);
    }, THEMES.light);
    const light = await chartColours(p);
    assert.equal(light.text, rgb('#3b3b3b'));
    assert.equal(light.bar, rgb('#1a85ff'));
    await p.screenshot('chart-light.png');
  });

  it('uses the high-contrast chart colours', async () => {
    const p = await open('highContrast', await chartSvg());
    const hc = await chartColours(p);
    assert.equal(hc.text, rgb('#ffffff'));
    assert.equal(hc.background, 'rgba(0, 0, 0, 0)');
    await p.screenshot('chart-highContrast.png');
  });

  it('Enlarge scales a chart to the view', async () => {
    const p = await open('dark', await chartSvg(), { width: 1400, height: 1000 });
    const inline = await p.page.$eval('.image-block svg.chart-svg', (s) => s.getBoundingClientRect().width);
    await p.page.click('.image-open');
    const big = await p.page.$eval('.overlay svg.chart-svg', (s) => {
      const r = s.getBoundingClientRect();
      return { width: r.width, height: r.height, right: r.right, bottom: r.bottom };
    });
    assert.ok(big.width > inline * 1.5, `enlarged ${big.width}px vs ${inline}px inline`);
    assert.ok(big.right <= 1400 && big.bottom <= 1000, 'fits the view');
    await p.screenshot('chart-enlarged.png');
    await p.page.keyboard.press('Escape');
    assert.equal(await p.page.$('.overlay svg.chart-svg'), null, 'the copy goes when the overlay closes');
  });

  it('Enlarge scales a picture beyond its own size', async () => {
    const p = await open('dark', undefined, { width: 1400, height: 1000 });
    await p.page.waitForFunction(() => (document.querySelector('.image-block img') as HTMLImageElement | null)?.complete === true);
    await p.page.click('.image-open');
    const shown = await p.page.$eval('.overlay .overlay-image', (el) => {
      const img = el as HTMLImageElement;
      const r = img.getBoundingClientRect();
      // object-fit: contain draws the picture at the largest scale that fits the element's box.
      return { scale: Math.min(r.width / img.naturalWidth, r.height / img.naturalHeight), fit: getComputedStyle(img).objectFit };
    });
    assert.equal(shown.fit, 'contain');
    assert.ok(shown.scale > 1.5, `the picture is drawn at ${shown.scale.toFixed(2)}x`);
  });

  it('strips everything active from a hostile drawing', async () => {
    const hostile = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="100" onload="window.__pwned=1">'
      + '<script>window.__pwned=2</script><style>body{display:none}</style>'
      + '<foreignObject width="100" height="50"><iframe src="https://evil.example/"></iframe></foreignObject>'
      + '<image href="https://evil.example/x.png" width="10" height="10"/><use xlink:href="https://evil.example/s.svg#a"/>'
      + '<a href="javascript:window.__pwned=3"><text x="5" y="20">click</text></a>'
      + '<rect class="overlay marks" style="fill:red" width="10" height="10" fill="url(#nowhere)"/></svg>';
    inertParseReports = true;
    const p = await open('dark', hostile);
    const dom = await p.page.evaluate(() => {
      const svg = document.querySelector('.image-block svg.chart-svg');
      return {
        inline: svg !== null,
        active: svg?.querySelectorAll('script, style, foreignObject, iframe, image, use, a').length ?? -1,
        onload: svg?.hasAttribute('onload'),
        rectClass: svg?.querySelector('rect')?.getAttribute('class'),
        rectStyle: svg?.querySelector('rect')?.hasAttribute('style'),
        rectFill: svg?.querySelector('rect')?.getAttribute('fill'),
        pwned: (window as unknown as { __pwned?: number }).__pwned,
        hidden: getComputedStyle(document.body).display === 'none',
      };
    });
    assert.deepEqual(dom, { inline: true, active: 0, onload: false, rectClass: 'marks', rectStyle: false, rectFill: 'none', pwned: undefined, hidden: false });
  });

  it('shows text that is not an SVG drawing as the image file instead', async () => {
    const p = await open('dark', '<div class="overlay">not a drawing</div>');
    await p.page.waitForSelector('.image-block img');
    assert.equal(await p.page.$('.image-block svg.chart-svg'), null);
  });
});
