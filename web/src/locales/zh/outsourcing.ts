/** Outsourcing's own screens beside its bills (namespace `outsourcing`): materials at suppliers. */
export default {
  atSupplier: {
    supplier: '供应商',
    order: '委外订单',
    keyword: '物料',
    keywordHint: '物料编码或名称',
    held: '结存',
    heldOnly: '仍在供应商处',
    heldAll: '全部',
    materialCode: '物料编码',
    materialName: '物料名称',
    specification: '规格',
    unit: '单位',
    sent: '已发料',
    returned: '已退料',
    consumed: '已耗用',
    quantity: '供应商结存',
    amount: '结存金额',
  },
};
