/**
 * How the record kit names a record type: by its menu key `<area>_<record>` (`basic_fee`,
 * `system_printer`). The key prefixes the button codes the server checks (`basic_fee_delete`); the
 * record part prefixes the test ids of its controls (`fee-delete-selected`).
 */
export type RecordKey = `${string}_${string}`;

/** Button code of an action on the record type: `basic_fee` + `delete` → `basic_fee_delete`. */
export const codeOf = (record: RecordKey, action: string) => `${record}_${action}`;

/** Test id of one of the record type's controls: `basic_fee` + `add` → `fee-add`. */
export const testIdOf = (record: RecordKey, control: string) => `${record.slice(record.indexOf('_') + 1)}-${control}`;
