// The iteration loop's vocabulary: rules as the engine runs them (every default applied), what one
// validation reports, and the signals a validation can end in.
import type { ProtectedPaths } from '../sandbox/os-sandbox.js';

export type Signal = 'CONTINUE' | 'COMPLETE' | 'BLOCKED' | 'ESCALATE';

interface RuleBase {
  name: string;
  enabled: boolean;
}

/** Runs a program in the project root; passes when it exits with `expectedExitCode`. */
export interface CommandRule extends RuleBase {
  type: 'command';
  /** A shell command line, or an argument vector run without a shell. */
  command: string | string[];
  expectedExitCode: number;
  timeoutSeconds: number;
  /** Relative to the project root. */
  cwd?: string;
}

/** Looks for a regular expression in the agent's output or in a file of the project. */
export interface ContentPatternRule extends RuleBase {
  type: 'content_pattern';
  pattern: string;
  flags: string;
  /** `agent_output`, or a path relative to the project root. */
  target: string;
  mustMatch: boolean;
}

/** Reads a coverage report (lcov, istanbul json-summary, cobertura) and compares lines covered. */
export interface CoverageRule extends RuleBase {
  type: 'coverage';
  /** Relative to the project root; absent: the usual places are tried. */
  report?: string;
  minCoverage: number;
}

export interface FileExistsRule extends RuleBase {
  type: 'file_exists';
  /** Relative to the project root. */
  path: string;
  mustExist: boolean;
}

export type Rule = CommandRule | ContentPatternRule | CoverageRule | FileExistsRule;
export type RuleType = Rule['type'];

export interface RuleResult {
  name: string;
  type: RuleType;
  passed: boolean;
  /** The rule could not be evaluated (program missing, timed out, report unreadable, bad pattern). */
  errored: boolean;
  /** One line for the agent: what was seen and, when it failed, what would pass. */
  message: string;
  exitCode?: number | null;
  timedOut?: boolean;
  durationMs?: number;
  /** The last lines of a command's combined output. */
  outputTail?: string;
  coverage?: number;
}

export interface ValidationReport {
  results: RuleResult[];
  totalRules: number;
  passedRules: number;
  failedRules: number;
  erroredRules: number;
  overallPassed: boolean;
  /** 0–100 (score.ts). */
  score: number;
}

/** What the rules see besides the file system. */
export interface ValidationContext {
  /** Absolute project root: commands run here, paths resolve from here. */
  root: string;
  /** What the OS sandbox keeps read-only while a command rule runs: the project's guarded set. */
  protect: ProtectedPaths;
  /** The agent's latest final message (for `content_pattern` rules on `agent_output`). */
  agentOutput: string;
  /**
   * The loop the rules belong to, and whether a person vouched for its command rules (started the loop in
   * their own terminal, or ran `isdlc loop approve`). Asked only where no OS sandbox can hold a command:
   * there a command nobody vouched for is not run. Absent: nobody did.
   */
  loop?: { id: string; approvedByPerson: boolean };
}
