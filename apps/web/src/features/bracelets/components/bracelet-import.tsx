import { BRACELET_IMPORT_COLUMNS, type BraceletImportColumn } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { CsvImportPanel } from '../../../components/csv-import/csv-import-panel';
import { useImportBracelets } from '../api/register-bracelet';

/** Header names accepted in either language, whichever the reader's is. */
const ALIASES: Record<BraceletImportColumn, readonly string[]> = {
  serialNumber: ['シリアル番号', 'serial', 'serial number'],
  model: ['型番', 'モデル', 'model'],
  wearer: ['装着者', '装着者名', 'wearer'],
};

const EXAMPLE = `serialNumber,model,wearer
BR-0101,MB1,山田 太郎
BR-0102,MB1,`;

/** Bracelets by CSV (serial number, model, optional wearer), for those who register bracelets. */
export function BraceletImport({ clientId }: { clientId: string }) {
  const { t } = useTranslation('wearer');
  const send = useImportBracelets(clientId);
  return (
    <CsvImportPanel
      id="bracelets"
      title={t('register.importTitle')}
      lead={t('register.importLead')}
      columns={BRACELET_IMPORT_COLUMNS}
      columnLabel={(c) => t(`register.columns.${c}`)}
      aliases={ALIASES}
      example={EXAMPLE}
      send={send}
    />
  );
}
