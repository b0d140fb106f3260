/** Outsourcing's own screens beside its bills (namespace `outsourcing`): materials at suppliers. */
export default {
  atSupplier: {
    supplier: 'Supplier',
    order: 'Outsourcing order',
    keyword: 'Material',
    keywordHint: 'Material code or name',
    held: 'Held',
    heldOnly: 'Still at the supplier',
    heldAll: 'All',
    materialCode: 'Material code',
    materialName: 'Material',
    specification: 'Specification',
    unit: 'Unit',
    sent: 'Sent',
    returned: 'Returned',
    consumed: 'Consumed',
    quantity: 'At supplier',
    amount: 'Value',
  },
};
