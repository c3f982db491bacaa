/**
 * The curl baselines of the upload bench: v1's one form POST (`curl -F`), and v2's multipart
 * upload with each part PUT by its own curl, three at a time, as the client does (init and
 * complete are two small JSON calls, made with fetch). Each reports wall time and the CPU time of
 * the curl (and dd) processes, from bash's `times`.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface CurlRun {
  ms: number;
  cpuMs: number;
}

/** Seconds from bash's `times` line ("0m0.060s 0m0.610s"): user + system. */
function timesSeconds(line: string): number {
  let total = 0;
  for (const m of line.matchAll(/(\d+)m([\d.]+)s/g)) total += Number(m[1]) * 60 + Number(m[2]);
  return total;
}

/** v1: one `curl -F file=@...` to the upload endpoint. */
export async function curlFormUpload(file: string, url: string, apiKey: string, fields: Record<string, string> = {}): Promise<CurlRun> {
  const started = process.hrtime.bigint();
  // A local throwaway key, passed as an argument to a child of this process only.
  const args = ['-sS', '-o', '/dev/null', '-w', '%{http_code}\n', '-H', `x-pd-api-key: ${apiKey}`];
  for (const [k, v] of Object.entries(fields)) args.push('-F', `${k}=${v}`);
  args.push('-F', `file=@${file}`, url);
  const { stdout } = await run('bash', ['-c', 'curl "$@" && times', 'bash', ...args], { maxBuffer: 1 << 20 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const [code, , children] = stdout.trim().split('\n');
  if (code?.trim() !== '200') throw new Error(`curl upload answered HTTP ${code}`);
  return { ms, cpuMs: timesSeconds(children ?? '') * 1000 };
}

interface Plan {
  upload_id: string;
  file_object_key: string;
  part_items: Array<{ number: number; size: number; upload_url: string }>;
}

async function api(baseUrl: string, apiKey: string, path: string, body: unknown): Promise<unknown> {
  const r = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'x-pd-api-key': apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await r.json()) as { code: number; msg: string | null; data: unknown };
  if (json.code !== 0) throw new Error(`${path}: ${json.code} ${json.msg ?? ''}`);
  return json.data;
}

/**
 * One part: `dd` reads exactly the part's byte range, curl PUTs it with its length (curl would
 * send a piped body chunked, which a presigned PUT refuses, hence the emptied Transfer-Encoding);
 * returns the ETag and the CPU time of dd and curl.
 */
async function curlPart(file: string, offset: number, size: number, url: string): Promise<{ etag: string; cpuMs: number }> {
  const script = 'dd if="$1" bs=1M iflag=skip_bytes,count_bytes skip="$2" count="$3" status=none | '
    + 'curl -sS -T - -H "Transfer-Encoding:" -H "Expect:" -H "Content-Length: $3" -H "Content-Type: application/octet-stream" -D - -o /dev/null "$4" && times';
  const { stdout } = await run('bash', ['-c', script, 'bash', file, String(offset), String(size), url], { maxBuffer: 1 << 20 });
  const status = /^HTTP\/1\.1 (\d+)/m.exec(stdout)?.[1];
  const etag = /^etag:\s*"?([^"\r\n]*)"?\r?$/im.exec(stdout)?.[1];
  if (status !== '200' || etag === undefined) throw new Error(`curl part PUT answered HTTP ${status ?? '?'}`);
  const lines = stdout.trim().split('\n');
  return { etag, cpuMs: timesSeconds(lines[lines.length - 1] ?? '') * 1000 };
}

/** v2: init, every part PUT by curl three at a time, complete. */
export async function curlPartsUpload(file: string, size: number, name: string, baseUrl: string, apiKey: string, userId: string): Promise<CurlRun> {
  const started = process.hrtime.bigint();
  const plan = (await api(baseUrl, apiKey, '/v2/team/file/init-multipart-upload', { file_name: name, file_size: size, user_id: userId })) as Plan;
  const queue = [...plan.part_items].sort((a, b) => a.number - b.number);
  const offsets = new Map<number, number>();
  let at = 0;
  for (const p of queue) {
    offsets.set(p.number, at);
    at += p.size;
  }
  const etags: Array<{ number: number; etag: string }> = [];
  let cpuMs = 0;
  const worker = async (): Promise<void> => {
    for (let p = queue.shift(); p !== undefined; p = queue.shift()) {
      const r = await curlPart(file, offsets.get(p.number) ?? 0, p.size, p.upload_url);
      etags.push({ number: p.number, etag: r.etag });
      cpuMs += r.cpuMs;
    }
  };
  await Promise.all([worker(), worker(), worker()]);
  etags.sort((a, b) => a.number - b.number);
  await api(baseUrl, apiKey, '/v2/team/file/complete-multipart-upload', { file_object_key: plan.file_object_key, upload_id: plan.upload_id, part_etags: etags, user_id: userId });
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, cpuMs };
}
