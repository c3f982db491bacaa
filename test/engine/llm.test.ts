/**
 * The model's own SQL, against a local OpenAI-compatible server (a scripted one: it tests our
 * client's request, validation and fallback, not a model). SQL is used only for questions no plan
 * of the engine fits (here: ones it refuses); valid SQL and a grounded narrative are used, labelled
 * as the model's; unsafe SQL, broken replies, HTTP errors, timeouts and invented numbers fall back.
 */
import { strict as assert } from 'node:assert';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { llmConfigFromEnv } from '../../src/server/model/llmClient';
import { numbersSupported, withTables } from '../../src/server/model/sqlAnswer';
import { startRig, type EngineRig } from './engineHarness';

const KEY = 'sk-test-secret-4242';
const CSV = 'region,channel,revenue\nEurope,online,10\nEurope,retail,20\nAsia,online,5\nAsia,retail,7\nAfrica,online,3\n';

interface Seen {
  auth: string | undefined;
  body: { model: string; messages: Array<{ role: string; content: string }> };
}

type Reply = (res: ServerResponse) => void;

const sqlReply = (sql: string): string => JSON.stringify({ answer: 'sql', sql });

function chatReply(content: string): Reply {
  return (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
  };
}

describe('optional language model (OpenAI-compatible)', function () {
  this.timeout(60_000);
  let server: Server;
  let baseUrl: string;
  const seen: Seen[] = [];
  let replies: Reply[] = [];
  let rig: EngineRig;
  const sockets = new Set<import('node:net').Socket>();

  before(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let data = '';
      req.on('data', (c: Buffer) => (data += c.toString()));
      req.on('end', () => {
        seen.push({ auth: req.headers.authorization, body: JSON.parse(data) as Seen['body'] });
        const next = replies.shift();
        if (next) next(res);
        else {
          res.writeHead(500);
          res.end('no reply scripted');
        }
      });
    });
    server.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    rig = await startRig({ 'sales.csv': CSV }, { llm: { baseUrl, model: 'tiny-sql', apiKey: KEY, timeoutMs: 1500 } });
  });
  after(async () => {
    await rig.close();
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    seen.length = 0;
    replies = [];
  });

  it('uses the model SQL and a grounded narrative, shows the SQL over the user\'s file, sends key, model and language', async () => {
    replies = [
      chatReply(`Here you go:\n\`\`\`json\n${sqlReply('SELECT region, sum(revenue) AS total FROM sales GROUP BY region ORDER BY total DESC;')}\n\`\`\``),
      chatReply('Europa liegt vorn mit 30, vor Asien mit 12.'),
    ];
    const a = await rig.ask('Umsatz je Region', ['sales.csv'], { languageType: 'DE' });
    assert.match(a.message, /^Europa liegt vorn mit 30, vor Asien mit 12\.\n\n_Answered with SQL written by the model \(tiny-sql\)/);
    assert.match(a.code[0] ?? '', /-- SQL written by the model \(tiny-sql\)/);
    assert.deepEqual(a.tables[0], [['region', 'total'], ['Europe', '30'], ['Asia', '12'], ['Africa', '3']]);
    assert.match(a.code[0] ?? '', /read_csv\('sales\.csv'/);
    assert.match(a.code[0] ?? '', /SELECT region, sum\(revenue\) AS total FROM sales GROUP BY region ORDER BY total DESC/);
    assert.equal(seen.length, 2);
    assert.equal(seen[0]?.auth, `Bearer ${KEY}`);
    assert.equal(seen[0]?.body.model, 'tiny-sql');
    assert.match(seen[0]?.body.messages[1]?.content ?? '', /Table sales \(from sales\.csv, 5 rows\)/);
    assert.match(seen[0]?.body.messages[1]?.content ?? '', /"region" VARCHAR .*values: "Africa", "Asia", "Europe"/);
    assert.match(seen[1]?.body.messages[0]?.content ?? '', /In German/);
    assert.ok(!JSON.stringify(a.events).includes(KEY), 'the key never reaches the answer');
  });

  it('merges the model\'s own WITH list with the table CTEs', async () => {
    replies = [
      chatReply(sqlReply('WITH t AS (SELECT channel, count(*) AS n FROM sales GROUP BY channel) SELECT * FROM t ORDER BY n DESC, channel')),
      chatReply('online leads with 3 rows.'),
    ];
    const a = await rig.ask('Zeilen je Kanal', ['sales.csv']);
    assert.deepEqual(a.tables[0], [['channel', 'n'], ['online', '3'], ['retail', '2']]);
    assert.match(a.message, /^online leads with 3 rows\./);
  });

  it('falls back to the built-in engine when the model writes SQL that reads files', async () => {
    replies = [chatReply(sqlReply("SELECT * FROM read_csv('/etc/passwd')"))];
    const a = await rig.ask('Umsatz je Region', ['sales.csv']);
    assert.equal(seen.length, 1, 'no narrative is asked for refused SQL');
    assert.ok(a.steps.some((s) => /SQL written by the model/.test(s.name) && s.status === 'error'));
    assert.equal(a.tables.length, 0);
    assert.match(a.message, /^I can't answer that from sales\.csv/);
    assert.match(a.message, /The SQL written by the model \(tiny-sql\) could not be run/);
    assert.ok(!a.code.join('\n').includes('passwd'));
    assert.ok(!a.message.includes('passwd'));
  });

  it('runs the guard\'s hostile statements as model SQL: each is refused, nothing is read, written or dropped', async () => {
    const hostile = [
      "SELECT * FROM read_text('/etc/passwd')", "SELECT * FROM glob('/etc/*')", "SELECT getenv('HOME') AS h",
      "COPY (SELECT * FROM sales) TO '/tmp/team-data-model-copy.csv'", "ATTACH '/tmp/team-data-model.db' AS x", 'INSTALL httpfs',
      'SELECT 1; DROP TABLE sales', "SELECT * FROM query('SELECT 1')", 'SELECT * FROM duckdb_tables()',
      "SELECT current_setting('threads') AS t", 'WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r) SELECT * FROM r',
    ];
    for (const sql of hostile) {
      seen.length = 0;
      replies = [chatReply(sqlReply(sql))];
      const a = await rig.ask('Umsatz je Region', ['sales.csv']);
      assert.equal(seen.length, 1, sql);
      assert.equal(a.tables.length, 0, sql);
      assert.ok(a.steps.some((s) => /SQL written by the model/.test(s.name) && s.status === 'error'), sql);
      assert.ok(!a.message.includes('root:'), sql);
    }
    const { existsSync } = await import('node:fs');
    assert.equal(existsSync('/tmp/team-data-model-copy.csv'), false);
    assert.equal(existsSync('/tmp/team-data-model.db'), false);
    const after = await rig.ask('total revenue', ['sales.csv']);
    assert.deepEqual(after.tables[after.tables.length - 1], [['total_revenue'], ['45']]);
  });

  it('uses no SQL of the model when a plan of the engine fits, and says so', async () => {
    replies = [chatReply(sqlReply('SELECT 999 AS total'))];
    const a = await rig.ask('total revenue by region', ['sales.csv']);
    assert.equal(seen.length, 1);
    assert.deepEqual(a.tables[0], [['region', 'total_revenue'], ['Europe', '30'], ['Asia', '12'], ['Africa', '3']]);
    assert.match(a.message, /\*\*Europe\*\* has the highest total `revenue` \(30\)/);
    assert.match(a.message, /answered with its own SQL, which cannot be checked like a plan; this answer is the built-in engine's reading/);
    assert.ok(!a.code.join('\n').includes('999'));
  });

  it('falls back on HTTP errors, non-JSON replies, replies without SQL, SQL errors and timeouts', async () => {
    const hang: Reply = () => undefined;
    const cases: Reply[] = [
      (res) => { res.writeHead(503); res.end('busy'); },
      (res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end('not json'); },
      chatReply('I am not sure.'),
      chatReply(sqlReply('SELECT no_such_column FROM sales')),
      hang,
    ];
    for (const reply of cases) {
      replies = [reply];
      const a = await rig.ask('total revenue', ['sales.csv']);
      assert.deepEqual(a.tables[a.tables.length - 1], [['total_revenue'], ['45']]);
      assert.match(a.message, /^Total `revenue`: \*\*45\*\*/);
      assert.match(a.message, /this answer is the built-in engine's/i);
      assert.ok(!a.message.includes(KEY));
    }
  });

  it('caps a model result by bytes and cell size, not only rows, and says so in the answer (issue 25)', async () => {
    // Defect: rows were capped at 10,000 whatever their size; 10,000 rows of 1 MB took 10 GB.
    replies = [chatReply(sqlReply("SELECT repeat('x', 200000) AS s, 1 AS n FROM range(10000)")), chatReply('Every row holds x.')];
    // Memory is checked where the rows are read (resultCaps.test.ts): this harness parses the TABLE.
    const a = await rig.ask('long values', ['sales.csv']);
    const table = a.tables[0] ?? [];
    assert.ok(table.length > 100 && table.length < 10_000, `${table.length} rows`);
    assert.ok(table.slice(1).every((r) => (r[0] ?? '').length <= 64 * 1024 + 1 && (r[0] ?? '').endsWith('…')), 'every cell cut, with …');
    assert.match(a.message, /The result was cut at 34 MB: only its first \d+ rows are shown\. \d+ values were longer than 66 kB and were cut/);
  });

  it('names a model query whose rows build values too large to compute, and answers without it (issue 25)', async () => {
    // 2,048 rows of 8 MB at a time: DuckDB runs out of memory before any cell can be cut.
    replies = [chatReply(sqlReply("SELECT repeat('x', 8000000 + i % 7) AS s FROM range(10000) t(i)"))];
    const a = await rig.ask('long values', ['sales.csv']);
    assert.ok(a.steps.some((s) => /^Stop the model's query: its result is too large to compute/.test(s.name) && s.status === 'error'), JSON.stringify(a.steps));
    assert.match(a.message, /^I can't answer that from sales\.csv/);
    assert.deepEqual((await rig.store.query('SELECT 42 AS x')).rows, [[42]]);
  });

  it('keeps the model\'s table but not a narrative with numbers that are not in the result', async () => {
    replies = [chatReply(sqlReply('SELECT sum(revenue) AS total FROM sales')), chatReply('Revenue reached 9,999 this year, up 12.5%.')];
    const a = await rig.ask('Umsatz insgesamt', ['sales.csv']);
    assert.deepEqual(a.tables[0], [['total'], ['45']]);
    assert.doesNotMatch(a.message, /9,999/);
    assert.match(a.message, /total = 45/);
  });

  it('reads its configuration from the environment only when base URL and model are both set', () => {
    assert.equal(llmConfigFromEnv({}), undefined);
    assert.equal(llmConfigFromEnv({ TEAM_DATA_LLM_BASE_URL: 'http://127.0.0.1:11434/v1' }), undefined);
    assert.equal(llmConfigFromEnv({ TEAM_DATA_LLM_BASE_URL: 'file:///etc', TEAM_DATA_LLM_MODEL: 'm' }), undefined);
    assert.deepEqual(llmConfigFromEnv({ TEAM_DATA_LLM_BASE_URL: 'http://127.0.0.1:11434/v1', TEAM_DATA_LLM_MODEL: 'llama3' }), { baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3' });
    assert.deepEqual(llmConfigFromEnv({ TEAM_DATA_LLM_BASE_URL: 'https://x/v1', TEAM_DATA_LLM_MODEL: 'm', TEAM_DATA_LLM_API_KEY: 'k' }), { baseUrl: 'https://x/v1', model: 'm', apiKey: 'k' });
  });

  it('merges WITH lists, and checks narrative numbers against the result', () => {
    assert.equal(withTables(['a AS (SELECT 1)'], 'WITH b AS (SELECT 2) SELECT * FROM b'), 'WITH a AS (SELECT 1),\nb AS (SELECT 2) SELECT * FROM b');
    const rows = [['Europe', 30], ['Asia', 12]];
    assert.ok(numbersSupported('Europe has 30, Asia 12; Europe is 71.4% of the total 42 in 2024.', rows));
    assert.ok(!numbersSupported('Europe has 35.', rows));
    assert.ok(!numbersSupported('Revenue grew 18.25% to 1,234.', rows));
  });
});
