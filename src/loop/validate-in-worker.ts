// The hook's engine is synchronous, while a rule's process group has to be watched and killed
// asynchronously; so the Stop hook runs the validation on a worker thread (dist/validate.cjs, the rules
// without the loop store) and blocks until it reports. A thread, not a child Node process: it starts in
// about half the time, and that start is in every Stop of a loop's session. The worker gets a deadline
// inside the hook's own time limit.
import { join } from 'node:path';
import type { Rule, RuleResult, ValidationContext, ValidationReport } from './types.js';
import { summarise } from './validate.js';

export const VALIDATE_FLAG = '--validate';

export interface ValidationRequest {
  rules: Rule[];
  context: ValidationContext;
  /** Epoch milliseconds by which every rule must have finished. */
  deadline: number;
}

type WorkerReply = { report: ValidationReport } | { problem: string };

/** Past the rules' deadline, how long the hook still waits for the worker's report before giving up on it. */
const REPORT_GRACE_MS = 15_000;

/**
 * The worker's whole program. Whatever happens there (the bundle does not load, a rule's handling throws
 * later, nothing is left to wait for), it answers and raises the flag the hook waits on: a worker that
 * ended silently would hold the hook until the deadline.
 */
const WORKER_SOURCE = `
const input = require('node:worker_threads').workerData;
let answered = false;
const answer = (reply) => {
  if (answered) return;
  answered = true;
  try { input.port.postMessage(reply); } finally { Atomics.store(input.sent, 0, 1); Atomics.notify(input.sent, 0); }
};
const fail = (error) => answer({ problem: String((error && error.message) || error).split('\\n')[0] });
process.on('uncaughtException', fail);
process.on('exit', () => answer({ problem: 'it ended without a report' }));
try {
  const { rules, context, deadline } = input.request;
  require(input.bundle).validate(rules, context, { deadline }).then((report) => answer({ report }), fail);
} catch (error) {
  fail(error);
}
`;

function failedReport(rules: Rule[], why: string): ValidationReport {
  const results: RuleResult[] = rules
    .filter((rule) => rule.enabled)
    .map((rule) => ({ name: rule.name, type: rule.type, passed: false, errored: true, message: `${rule.name}: not evaluated (${why})` }));
  return summarise(results);
}

/** Runs `request` on a worker thread with the validation bundle at `bundle` and waits for its report. */
export function validateInWorker(request: ValidationRequest, bundle = join(__dirname, 'validate.cjs')): ValidationReport {
  const threads = process.getBuiltinModule('node:worker_threads');
  const sent = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new threads.MessageChannel();
  let worker: import('node:worker_threads').Worker;
  try {
    // Its stdout and stderr kept apart: the hook's own stdout is its answer to the host.
    worker = new threads.Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { request, bundle, port: port2, sent },
      transferList: [port2],
      stdout: true,
      stderr: true,
    });
  } catch (error) {
    port1.close();
    return failedReport(request.rules, `the validation could not start: ${(error as Error).message}`);
  }
  const waited = Atomics.wait(sent, 0, 0, Math.max(1_000, request.deadline - Date.now() + REPORT_GRACE_MS));
  const reply = threads.receiveMessageOnPort(port1)?.message as WorkerReply | undefined;
  port1.close();
  void worker.terminate();
  if (!reply) return failedReport(request.rules, waited === 'timed-out' ? 'the validation did not report in time' : 'the validation ended without a report');
  if ('problem' in reply) return failedReport(request.rules, `the validation failed: ${reply.problem}`);
  return reply.report;
}
