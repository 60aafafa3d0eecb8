import type { CertifyReport, CertifyVerdict } from '../../testing/index.js';
import type { Paint, Style } from '../style.js';

const LABEL: Record<CertifyVerdict, [string, Style]> = {
  pass: ['PASS', 'green'],
  warn: ['WARN', 'yellow'],
  fail: ['FAIL', 'red'],
};

/** The human report of `certify`: one line per check, its fix under it when it did not pass, then the totals. */
export function formatCertifyReport(report: CertifyReport, paint: Paint): string {
  const width = Math.max(...report.checks.map((check) => check.id.length));
  const lines = [`certify ${report.url} (${report.mode} mode)`, ''];
  for (const check of report.checks) {
    const [label, style] = LABEL[check.verdict];
    lines.push(`${paint(style, label)}  ${check.id.padEnd(width)}  ${check.title}: ${check.detail}`);
    if (check.fix !== undefined) lines.push(`${' '.repeat(6 + width)}  ${paint('dim', 'fix:')} ${check.fix}`);
  }
  const { pass, warn, fail } = report.totals;
  lines.push('', `${pass} passed, ${warn} warned, ${fail} failed`);
  if (report.notRun.length > 0) {
    lines.push(
      `${report.notRun.length} checks not run until the route accepts a genuine event: ${report.notRun.join(', ')}`,
    );
  }
  lines.push(report.note, '');
  return lines.join('\n');
}
