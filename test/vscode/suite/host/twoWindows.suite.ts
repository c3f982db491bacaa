/**
 * Two windows on one data folder (issue 23), run only by the launcher's two-window test: this file
 * runs in each of two real VS Code windows at once (TEAM_DATA_SUITE_WINDOW = A or B), both on
 * TEAM_DATA_DATA_DIR, next to datasets the CLI made before. Window A starts the service; B attaches
 * to it; each sees what the other and the CLI made, in its trees. Then A closes (the launcher says
 * so in the sync folder) and B goes on asking, on the same service.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { api, waitFor } from './helpers';

const W = process.env['TEAM_DATA_SUITE_WINDOW'] as 'A' | 'B';
const OTHER = W === 'A' ? 'B' : 'A';
const sync = process.env['TEAM_DATA_SUITE_SYNC'] as string;
const mark = (name: string, text = ''): void => writeFileSync(join(sync, `${W}-${name}`), text);
const seen = (who: string, name: string): boolean => existsSync(join(sync, `${who}-${name}`));

describe(`two windows on one data folder (window ${W})`, function () {
  this.timeout(300_000);
  let pid: number | undefined;

  it('attaches to one service and sees the other window\'s and the CLI\'s datasets and sessions in its trees', async () => {
    const s = (await api()).services;
    // A starts the service; B's first use must find it (not start a second one).
    if (W === 'B') await waitFor('window A to start the service', () => seen('A', 'attached'), 240_000);
    await s.supervisor.ensureStarted();
    pid = s.supervisor.pid;
    assert.ok(pid);
    mark('attached', String(pid));
    const client = await s.connection.client();
    await client.datasets.create({ name: `made in window ${W}`, description: '' });
    // Each window asks too, about the data the CLI brought.
    const cliData = (await client.datasets.list({ pageSize: 100 })).records.find((d) => d.name === 'made by the CLI');
    assert.ok(cliData, 'the CLI\'s dataset');
    const mine = await client.sessions.create({ title: `asked in window ${W}` });
    const answer = await client.jobs.run({ sessionId: mine.id, question: 'total revenue by channel', datasetId: cliData.id });
    assert.equal(answer.state, 'done');
    assert.match(JSON.stringify(answer.groups), /partner/);
    const names = await waitFor(`the other window's and the CLI's datasets in the Datasets tree`, async () => {
      s.datasets.refresh();
      const all = (await s.datasets.getChildren()).flatMap((n) => (n.kind === 'dataset' ? [n.dataset.name] : []));
      return all.includes(`made in window ${OTHER}`) && all.includes('made by the CLI') ? all : undefined;
    }, 240_000);
    assert.ok(names.includes(`made in window ${W}`));
    const theirs = await waitFor(`the other window's and the CLI's sessions in the Sessions tree`, async () => {
      s.sessions.refresh();
      const sessions = (await s.sessions.getChildren()).flatMap((n) => (n.kind === 'session' ? [n.session] : []));
      const other = sessions.find((x) => x.title === `asked in window ${OTHER}`);
      return other && sessions.some((x) => x.title.startsWith('CLI: ')) ? other : undefined;
    }, 60_000);
    // The other window's question is in its session's history, as asked there.
    await waitFor('the other window\'s question in its history', async () => (await client.sessions.history(theirs.id)).records
      .some((r) => JSON.stringify(r.question.blocks).includes('total revenue by channel')), 60_000);
    assert.equal(readFileSync(join(sync, `${OTHER}-attached`), 'utf8'), String(pid), 'both windows use the same service');
    mark('saw-all');
    // Neither window leaves before both saw everything.
    await waitFor('the other window to see everything too', () => seen(OTHER, 'saw-all'), 120_000);
  });

  if (W === 'B') it('keeps asking on the same service after the window that started it closed', async () => {
    await waitFor('window A to close', () => existsSync(join(sync, 'A-closed')), 240_000);
    const s = (await api()).services;
    const client = await s.connection.client();
    const ds = (await client.datasets.list({ pageSize: 100 })).records.find((d) => d.name === 'made by the CLI');
    assert.ok(ds, 'the CLI\'s dataset');
    const session = await client.sessions.create({ title: 'after A closed' });
    const answer = await client.jobs.run({ sessionId: session.id, question: 'total revenue by region', datasetId: ds.id });
    assert.equal(answer.state, 'done');
    assert.match(JSON.stringify(answer.groups), /Europe/);
    assert.equal(s.supervisor.pid, pid, 'the service the closed window started still serves this one');
  });
});
