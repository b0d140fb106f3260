import type { Unit } from '@p8/contract/basic';
import { addUnit } from './api/add-unit.ts';
import { deleteUnits } from './api/delete-units.ts';
import { enableUnits } from './api/enable-units.ts';
import { UNIT_EXPORT_PATH } from './api/export-units.ts';
import { UNIT_IMPORT_PATH } from './api/import-units.ts';
import { UNIT_LIST_PATH } from './api/list-units.ts';
import { updateUnit } from './api/update-unit.ts';
import SimpleRecordPage from '../../../components/RecordKit/SimpleRecordPage.tsx';

/** The units template is not among the system config's template links (the server offers none for units). */
const UNIT_TEMPLATE_URL = '/api/base/template/unit.xlsx';
const INVALIDATE = ['basic', 'unit'] as const;

/** Basic records → units of measure: the names materials count in (pcs, kg, box…). */
export default function UnitPage() {
  return (
    <SimpleRecordPage<Unit>
      record="basic_unit"
      section="basic.unit"
      listPath={UNIT_LIST_PATH}
      importPath={UNIT_IMPORT_PATH}
      exportPath={UNIT_EXPORT_PATH}
      templateUrl={UNIT_TEMPLATE_URL}
      add={addUnit}
      update={updateUnit}
      remove={deleteUnits}
      enable={enableUnits}
      invalidate={INVALIDATE}
    />
  );
}
