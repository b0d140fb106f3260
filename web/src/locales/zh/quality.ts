/** 质量管理：检验单行按检验方案录入的检验记录。 */
export default {
  readings: '检验记录',
  readingsCount: '已录 {{count}} 项',
  item: '检验项目',
  method: '检验方法',
  standard: '标准值 [下限, 上限]',
  reading: '检验值',
  judged: '判定',
  pass: '合格',
  fail: '不合格',
  passFail: '合格/不合格',
  blocks: '不合格判批退',
  verdictSoFar: '按当前记录判定',
};
