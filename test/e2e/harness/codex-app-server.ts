// Asks Codex itself, through `codex app-server` (JSON-RPC, one message a line on stdio), what the
// `/hooks` review would show: every hook it found for a folder, with its key, its current hash and
// whether it is trusted. Nothing is sent to a model.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ensureCodex } from './codex-install.js';
import type { CodexProject } from './codex-session.js';

export interface ListedHook {
  key: string;
  eventName: string;
  matcher: string | null;
  command?: string;
  timeoutSec: number;
  currentHash: string;
  /** `trusted`, `untrusted`, `modified` (trusted, then changed) or `managed`. */
  trustStatus: string;
  enabled: boolean;
  source: string;
}

export interface HookListing {
  hooks: ListedHook[];
  warnings: string[];
  errors: unknown[];
}

async function call(project: CodexProject, requests: { method: string; params: unknown }[], timeoutMs = 30_000): Promise<unknown[]> {
  const binary = ensureCodex(project.version);
  const child = spawn(binary.command, ['app-server'], {
    cwd: project.dir,
    env: { PATH: process.env['PATH'], HOME: project.home, LANG: 'C.UTF-8', CODEX_HOME: project.codexHome },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const answers = new Map<number, (value: unknown) => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    try {
      const message = JSON.parse(line) as { id?: number; result?: unknown; error?: unknown };
      if (typeof message.id === 'number') answers.get(message.id)?.(message.error ? { error: message.error } : message.result);
    } catch {
      // a notification or a log line
    }
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const ask = (id: number, method: string, params: unknown): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`codex app-server gave no answer to ${method}: ${stderr}`)), timeoutMs);
      answers.set(id, (value) => {
        clearTimeout(timer);
        resolve(value);
      });
      child.stdin.write(`${JSON.stringify({ method, id, params })}\n`);
    });
  try {
    await ask(0, 'initialize', { clientInfo: { name: 'isdlc-e2e', title: null, version: '0' }, capabilities: null });
    child.stdin.write(`${JSON.stringify({ method: 'initialized' })}\n`);
    const results: unknown[] = [];
    for (const [i, request] of requests.entries()) results.push(await ask(i + 1, request.method, request.params));
    return results;
  } finally {
    child.kill('SIGKILL');
  }
}

/** `hooks/list` for the project's folder. */
export async function listHooks(project: CodexProject): Promise<HookListing> {
  const [result] = (await call(project, [{ method: 'hooks/list', params: { cwds: [project.dir] } }])) as [{ data?: HookListing[]; error?: unknown }];
  const listing = result.data?.[0];
  if (!listing) throw new Error(`hooks/list answered ${JSON.stringify(result)}`);
  return listing;
}

/**
 * Trusts hooks the way the `/hooks` review does: Codex's own config writer (`config/batchWrite`) puts
 * `[hooks.state."<key>"] trusted_hash = "<current hash>"` in the person's config.toml, for every hook
 * `hooks/list` shows (or those `which` picks), with the key and the hash Codex itself gives.
 */
export async function trustHooks(project: CodexProject, which: (hook: ListedHook) => boolean = () => true): Promise<ListedHook[]> {
  const chosen = (await listHooks(project)).hooks.filter(which);
  const value = Object.fromEntries(chosen.map((hook) => [hook.key, { trusted_hash: hook.currentHash }]));
  const [result] = (await call(project, [
    { method: 'config/batchWrite', params: { edits: [{ keyPath: 'hooks.state', value, mergeStrategy: 'upsert' }] } },
  ])) as [{ error?: unknown } | undefined];
  if (result && 'error' in result && result.error) throw new Error(`config/batchWrite answered ${JSON.stringify(result)}`);
  return chosen;
}
