import type { Paint } from '../style.js';
import type { CheckStatus } from './check.js';
import type { DoctorReport } from './run-doctor.js';

const WORDS: Record<CheckStatus, [label: string, style: 'green' | 'yellow' | 'red' | 'dim']> = {
  pass: ['ok  ', 'green'],
  warn: ['warn', 'yellow'],
  fail: ['FAIL', 'red'],
  skip: ['skip', 'dim'],
};

/** The report as the terminal shows it: one line per check, its fix under it, and a count. */
export function formatReport(report: DoctorReport, paint: Paint): string {
  const width = Math.max(...report.checks.map((check) => check.id.length));
  const lines: string[] = [];
  for (const check of report.checks) {
    const [label, style] = WORDS[check.status];
    lines.push(`${paint(style, label)}  ${check.id.padEnd(width)}  ${check.detail}`);
    if (check.fix !== undefined) lines.push(`${' '.repeat(width + 8)}fix: ${check.fix}`);
  }
  const count = (status: CheckStatus) => report.checks.filter((check) => check.status === status).length;
  lines.push(
    '',
    `${report.checks.length} checks: ${count('pass')} passed, ${count('fail')} failed, ${count('warn')} warning(s), ${count('skip')} skipped`,
  );
  return `${lines.join('\n')}\n`;
}
