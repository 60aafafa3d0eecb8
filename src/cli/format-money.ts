/**
 * `8000` or `"8000.00"` → `KES 8,000.00`: thousands grouped, at least two decimals. Digits are
 * regrouped as text, never through a float, so no amount is rounded into one the service did
 * not send (`"0.005"` stays `0.005`); anything that is not a plain decimal is shown as it came.
 */
export function money(amount: number | string, currency: string): string {
  const text = String(amount).trim();
  const parts = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (parts === null) return `${currency} ${text}`;
  const [, sign, whole = '', fraction = ''] = parts;
  return `${currency} ${sign}${whole.replace(/\B(?=(\d{3})+$)/g, ',')}.${fraction.padEnd(2, '0')}`;
}
