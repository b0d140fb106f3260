/**
 * An amount in Chinese capitals (大写金额), as cheques, invoices and delivery notes write it:
 * 1234.56 → 壹仟贰佰叁拾肆元伍角陆分, 100 → 壹佰元整, 10.05 → 壹拾元零伍分, -3 → 负叁元整. Rounded to the fen.
 * The integer part is read in groups of four digits (元, 万, 亿, 万亿); one 零 stands for any run of zeros
 * between non-zero digits, none at a group's end.
 */
const DIGITS = '零壹贰叁肆伍陆柒捌玖';
const PLACES = ['', '拾', '佰', '仟'];
const GROUPS = ['', '万', '亿', '万亿'];

export function amountInCapitals(value: number | string): string {
  const text = typeof value === 'number' ? value.toFixed(2) : value.trim();
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return '';
  const [, minus, whole, fraction = ''] = match;
  // Round half up to the fen on the decimal text itself (no binary floating point).
  let fen = BigInt(whole) * 100n + BigInt((fraction + '00').slice(0, 2));
  if (Number(fraction[2] ?? '0') >= 5) fen += 1n;
  if (fen === 0n) return '零元整';
  const yuan = fen / 100n;
  const jiao = Number((fen / 10n) % 10n);
  const cents = Number(fen % 10n);
  let out = '';
  if (yuan > 0n) {
    const digits = yuan.toString();
    if (digits.length > 16) return '';
    let zero = false;
    for (let i = 0; i < digits.length; i++) {
      const d = Number(digits[i]);
      const pos = digits.length - 1 - i;
      if (d === 0) zero = true;
      else {
        if (zero && out) out += '零';
        zero = false;
        out += DIGITS[d] + PLACES[pos % 4];
      }
      // The end of a group of four: its name, when the group has any digit.
      if (pos % 4 === 0 && pos > 0 && digits.slice(Math.max(0, i - 3), i + 1).replace(/0/g, '') !== '') out += GROUPS[pos / 4];
    }
    out += '元';
  }
  if (jiao === 0 && cents === 0) return `${minus ? '负' : ''}${out}整`;
  if (jiao > 0) out += `${DIGITS[jiao]}角`;
  else if (yuan > 0n) out += '零';
  if (cents > 0) out += `${DIGITS[cents]}分`;
  return `${minus ? '负' : ''}${out}`;
}
