/** Quality: an inspection line's readings against its template. */
export default {
  readings: 'Readings',
  readingsCount: 'Read: {{count}}',
  item: 'Item',
  method: 'Method',
  standard: 'Standard [min, max]',
  reading: 'Reading',
  judged: 'Judged',
  pass: 'Pass',
  fail: 'Fail',
  passFail: 'Pass / fail',
  blocks: 'Fails the lot',
  verdictSoFar: 'Verdict by these readings',
};
