// Test names from a JUnit XML report (Jest's and Vitest's junit reporters, pytest --junitxml, Mocha's xunit,
// and most CI tools), read with a real XML parser. Loaded only where the gate runs the tests: the hooks
// leave JUnit names aside.
import { XMLParser } from 'fast-xml-parser';
import { jsonReportNames, reportWrittenSince } from './reporter-names.js';
import { nameOf, runNames, titlePart, type NamedTest, type RunNames } from './test-name.js';

type Node = Record<string, unknown>;

const asList = (value: unknown): Node[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((item): item is Node => typeof item === 'object' && item !== null);

/** Every `<testcase>` in the report, however deep its `<testsuite>`s nest. */
function testcases(node: Node, out: Node[] = []): Node[] {
  for (const testcase of asList(node['testcase'])) out.push(testcase);
  for (const suite of asList(node['testsuite'])) testcases(suite, out);
  for (const suites of asList(node['testsuites'])) testcases(suites, out);
  return out;
}

export function junitNames(xml: string): RunNames | null {
  let document: Node;
  try {
    document = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', processEntities: true }).parse(xml) as Node;
  } catch {
    return null;
  }
  const tests: NamedTest[] = [];
  for (const testcase of testcases(document)) {
    const name = typeof testcase['name'] === 'string' ? testcase['name'] : '';
    if (!name) continue;
    const classname = typeof testcase['classname'] === 'string' ? testcase['classname'] : '';
    const failed = 'failure' in testcase || 'error' in testcase;
    const skipped = 'skipped' in testcase;
    // Vitest and Jest put the title path in `name` ("suite > test"); a classname that is a file is where it is.
    const file = /\.[cm]?[jt]sx?$|\.py$/.test(classname) ? classname : undefined;
    const parts = name.includes(' > ') ? name.split(' > ') : [name];
    tests.push({
      name: nameOf([...(classname && !file ? [classname] : []), ...parts.slice(0, -1), titlePart(parts.at(-1)!)]),
      outcome: failed ? 'failed' : skipped ? 'skipped' : 'passed',
      ...(file ? { file } : {}),
    });
  }
  return runNames('junit', tests);
}

/** The names in the reporter file at `path`, when this run wrote it: JUnit XML or a JSON report. */
export function reporterFileNames(path: string, since: number): RunNames | null {
  const text = reportWrittenSince(path, since);
  if (text === null) return null;
  return path.endsWith('.xml') ? junitNames(text) : jsonReportNames(text);
}
