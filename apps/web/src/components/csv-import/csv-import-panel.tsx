import { type ChangeEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { importProblemOf, type ImportResult, parseImportIssuePath } from '@wearable/domain';
import { ApiError } from '../../lib/api-client';
import { decodeCsv, readCsv } from '../../lib/csv';
import { Button } from '../ui/button';
import { Table, Td, Th } from '../ui/table';

export interface CsvImportProps<C extends string> {
  /** Names the panel (heading, test ids). */
  id: string;
  title: string;
  lead: string;
  columns: readonly C[];
  /** Each column's label in the reader's language (also accepted as a header). */
  columnLabel: (column: C) => string;
  /** Header names accepted besides the key and the label shown (the other language's label). */
  aliases?: Partial<Record<C, readonly string[]>>;
  /** An example file, shown as text. */
  example: string;
  /** The server's import: the preview (dryRun) and the commit, all rows or none. */
  send: (rows: Partial<Record<C, string>>[], dryRun: boolean) => Promise<ImportResult>;
}

interface RowProblem {
  row: number;
  column: string;
  message: string;
}

type State<C extends string> =
  | { step: 'idle' }
  | { step: 'checking' }
  | { step: 'refused'; problems: RowProblem[]; fileProblems: string[] }
  | { step: 'preview'; rows: Partial<Record<C, string>>[]; result: ImportResult; ignored: string[] }
  | { step: 'saving'; rows: Partial<Record<C, string>>[]; result: ImportResult; ignored: string[] }
  | { step: 'done'; result: ImportResult }
  | { step: 'failed'; message: string };

/**
 * A CSV import: choose a file, see every row as the server would take it (a preview that writes
 * nothing) or every bad cell by row and column in the reader's language, then import all rows at
 * once (the server writes all or none; importing the same file again changes nothing).
 */
export function CsvImportPanel<C extends string>(props: CsvImportProps<C>) {
  const { t } = useTranslation();
  const inputId = useId();
  const [state, setState] = useState<State<C>>({ step: 'idle' });
  const [fileName, setFileName] = useState<string>('');

  const problemText = (message: string) => {
    const problem = importProblemOf(message);
    return problem === undefined ? message : t(`csvImport.problems.${problem}`);
  };
  const columnText = (column: string) =>
    (props.columns as readonly string[]).includes(column) ? props.columnLabel(column as C) : column;

  function refusal(error: unknown): State<C> {
    if (error instanceof ApiError && error.body?.issues?.length) {
      const problems: RowProblem[] = [];
      const fileProblems: string[] = [];
      for (const issue of error.body.issues) {
        const at = parseImportIssuePath(issue.path);
        if (at) problems.push({ ...at, message: problemText(issue.message) });
        else fileProblems.push(`${issue.path}: ${issue.message}`);
      }
      return { step: 'refused', problems, fileProblems };
    }
    if (error instanceof ApiError && error.status === 403)
      return { step: 'failed', message: t('csvImport.forbidden') };
    return {
      step: 'failed',
      message: error instanceof ApiError ? error.message : t('csvImport.failed'),
    };
  }

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // Choosing the same file again (after a fix) is a change too.
    event.target.value = '';
    if (!file) return;
    setFileName(file.name);
    setState({ step: 'checking' });
    const read = readCsv(decodeCsv(await file.arrayBuffer()), props.columns, props.aliases);
    if (read.problems.length > 0 || read.rows.length === 0) {
      setState({
        step: 'refused',
        problems: [],
        fileProblems:
          read.rows.length === 0
            ? [t('csvImport.empty')]
            : read.problems.map((p) => t('csvImport.parseProblem', { line: p.line })),
      });
      return;
    }
    try {
      const result = await props.send(read.rows, true);
      setState({ step: 'preview', rows: read.rows, result, ignored: read.unknownColumns });
    } catch (error) {
      setState(refusal(error));
    }
  }

  async function commit() {
    if (state.step !== 'preview') return;
    setState({ ...state, step: 'saving' });
    try {
      setState({ step: 'done', result: await props.send(state.rows, false) });
    } catch (error) {
      setState(refusal(error));
    }
  }

  const headingId = `${props.id}-heading`;
  return (
    <section
      aria-labelledby={headingId}
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4"
      data-testid={`${props.id}-import`}
    >
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        {props.title}
      </h2>
      <p className="text-sm text-slate-700">{props.lead}</p>
      <p className="text-sm text-slate-700">
        {t('csvImport.columns', {
          columns: props.columns
            .map((c) => t('csvImport.columnName', { key: c, label: props.columnLabel(c) }))
            .join(t('csvImport.listSeparator')),
        })}
      </p>
      <details className="text-sm text-slate-700">
        <summary className="cursor-pointer">{t('csvImport.example')}</summary>
        <pre className="mt-2 overflow-x-auto rounded bg-slate-50 p-2 text-xs">{props.example}</pre>
      </details>
      <div>
        <label htmlFor={inputId} className="block text-sm font-medium text-slate-700">
          {t('csvImport.chooseFile')}
        </label>
        <input
          id={inputId}
          type="file"
          accept=".csv,text/csv"
          onChange={(e) => void choose(e)}
          className="mt-1 block w-full max-w-full text-sm"
          data-testid={`${props.id}-file`}
        />
      </div>
      <div role="status" aria-live="polite" className="text-sm">
        {state.step === 'checking' && t('csvImport.checking')}
        {state.step === 'done' && (
          <p className="text-teal-800" data-testid={`${props.id}-done`}>
            {t('csvImport.done', {
              file: fileName,
              created: state.result.created,
              updated: state.result.updated,
              unchanged: state.result.unchanged,
            })}
          </p>
        )}
      </div>
      {state.step === 'failed' && (
        <p role="alert" className="text-sm text-red-700">
          {state.message}
        </p>
      )}
      {state.step === 'refused' && (
        <div role="alert" className="space-y-2" data-testid={`${props.id}-problems`}>
          <p className="text-sm font-medium text-red-800">
            {t('csvImport.refused', { count: state.problems.length + state.fileProblems.length })}
          </p>
          {state.fileProblems.map((p) => (
            <p key={p} className="text-sm text-red-800">
              {p}
            </p>
          ))}
          {state.problems.length > 0 && (
            // A list, not a table: each problem reads whole on a phone.
            <ul
              className="space-y-1 rounded-md border border-red-200 bg-red-50 p-3 text-sm"
              aria-label={t('csvImport.problemsTable')}
            >
              {state.problems.map((p) => (
                <li
                  key={`${p.row}-${p.column}`}
                  data-testid={`${props.id}-problem`}
                  className="break-words text-red-900"
                >
                  <span data-part="row" className="font-medium">
                    {t('csvImport.rowNumber', { row: p.row })}
                  </span>
                  {t('csvImport.partSeparator')}
                  <span data-part="column" className="font-medium">
                    {columnText(p.column)}
                  </span>
                  {t('csvImport.colon')}
                  <span data-part="problem">{p.message}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {(state.step === 'preview' || state.step === 'saving') && (
        <div className="space-y-2" data-testid={`${props.id}-preview`}>
          <p className="text-sm text-slate-800">
            {t('csvImport.preview', {
              created: state.result.created,
              updated: state.result.updated,
              unchanged: state.result.unchanged,
            })}
          </p>
          {state.ignored.length > 0 && (
            <p className="text-sm text-amber-800">
              {t('csvImport.ignoredColumns', { columns: state.ignored.join(', ') })}
            </p>
          )}
          <Table label={t('csvImport.previewTable')}>
            <thead>
              <tr>
                <Th>{t('csvImport.row')}</Th>
                {props.columns.map((c) => (
                  <Th key={c}>{props.columnLabel(c)}</Th>
                ))}
                <Th>{t('csvImport.action')}</Th>
              </tr>
            </thead>
            <tbody>
              {state.rows.map((row, i) => (
                <tr key={i} data-testid={`${props.id}-preview-row`}>
                  <Td>{i + 1}</Td>
                  {props.columns.map((c) => (
                    <Td key={c} className="break-all">
                      {row[c] ?? ''}
                    </Td>
                  ))}
                  <Td>{t(`csvImport.actions.${state.result.rows[i]?.action ?? 'unchanged'}`)}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button
              variant="primary"
              onClick={() => void commit()}
              disabled={state.step === 'saving'}
              data-testid={`${props.id}-commit`}
            >
              {state.step === 'saving'
                ? t('csvImport.saving')
                : t('csvImport.commit', { count: state.rows.length })}
            </Button>
            <Button variant="outline" onClick={() => setState({ step: 'idle' })}>
              {t('common.cancel')}
            </Button>
          </div>
        </div>
      )}
    </section>
  );
}
