import { WEARER_IMPORT_COLUMNS, type WearerImportColumn } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { CsvImportPanel } from '../../../components/csv-import/csv-import-panel';
import { useImportWearers } from '../api/people-api';

/** Header names accepted in either language, whichever the reader's is. */
const ALIASES: Record<WearerImportColumn, readonly string[]> = {
  name: ['氏名', '名前', 'name'],
  nameReading: ['ふりがな', 'フリガナ', 'よみがな', '読み', 'reading'],
  group: ['グループ', 'group'],
  birthYear: ['生年', '生まれ年', '生年月日', 'birth year'],
  serialNumber: ['シリアル番号', 'ブレスレット', 'serial', 'bracelet'],
};

const EXAMPLE = `name,nameReading,group,birthYear,serialNumber
山田 太郎,やまだ たろう,第一現場,1980,BR-0101
佐藤 花子,さとう はなこ,第一現場,1975-04-02,`;

/** Wearers by CSV (name, reading, group, birth year, optional bracelet to pair). */
export function WearerImport({ clientId }: { clientId: string }) {
  const { t } = useTranslation();
  const send = useImportWearers(clientId);
  return (
    <CsvImportPanel
      id="wearers"
      title={t('people.import.title')}
      lead={t('people.import.lead')}
      columns={WEARER_IMPORT_COLUMNS}
      columnLabel={(c) => t(`people.import.columns.${c}`)}
      aliases={ALIASES}
      example={EXAMPLE}
      send={send}
    />
  );
}
