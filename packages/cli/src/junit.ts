import type { GateTestSuite } from '@aegis/domain';
import { XMLBuilder } from 'fast-xml-parser';

/**
 * A gate suite as JUnit XML, the shape Azure DevOps' PublishTestResults (testResultsFormat: JUnit)
 * reads: testsuites > testsuite (name, tests, failures, errors, skipped, time, timestamp) >
 * testcase (classname, name, time) with a failure (message, type, details as text) or system-out.
 */
export function toJUnitXml(suite: GateTestSuite, timestamp: Date, seconds = 0): string {
  const failures = suite.cases.filter((c) => c.failure).length;
  const time = seconds.toFixed(3);
  const counts = {
    '@_tests': suite.cases.length,
    '@_failures': failures,
    '@_errors': 0,
    '@_time': time,
  };
  const builder = new XMLBuilder({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    format: true,
    suppressEmptyNode: true,
    processEntities: true,
  });
  const doc = {
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    testsuites: {
      '@_name': suite.name,
      ...counts,
      testsuite: {
        '@_name': suite.name,
        ...counts,
        '@_skipped': 0,
        '@_timestamp': timestamp.toISOString().slice(0, 19),
        testcase: suite.cases.map((c) => ({
          '@_classname': c.classname,
          '@_name': c.name,
          '@_time': '0',
          ...(c.failure
            ? {
                failure: {
                  '@_message': c.failure.message,
                  '@_type': c.failure.type,
                  '#text': c.failure.details,
                },
              }
            : {}),
          ...(c.output ? { 'system-out': c.output } : {}),
        })),
      },
    },
  };
  return builder.build(doc);
}
