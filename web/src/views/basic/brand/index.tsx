import type { Brand } from '@p8/contract/basic';
import SimpleRecordPage from '../../../components/RecordKit/SimpleRecordPage.tsx';
import { addBrand } from './api/add-brand.ts';
import { deleteBrands } from './api/delete-brands.ts';
import { enableBrands } from './api/enable-brands.ts';
import { BRAND_EXPORT_PATH } from './api/export-brands.ts';
import { BRAND_IMPORT_PATH } from './api/import-brands.ts';
import { BRAND_LIST_PATH } from './api/list-brands.ts';
import { updateBrand } from './api/update-brand.ts';

const INVALIDATE = ['basic', 'brand'] as const;

/** Basic records → brands of the materials; a brand in use cannot be deleted. */
export default function BrandPage() {
  return (
    <SimpleRecordPage<Brand>
      record="basic_brand"
      section="basic.brand"
      listPath={BRAND_LIST_PATH}
      importPath={BRAND_IMPORT_PATH}
      exportPath={BRAND_EXPORT_PATH}
      template="brand"
      add={addBrand}
      update={updateBrand}
      remove={deleteBrands}
      enable={enableBrands}
      invalidate={INVALIDATE}
    />
  );
}
