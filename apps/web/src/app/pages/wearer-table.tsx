import type { DeviceSummary } from '@wearable/domain';
import { memo, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { focusRing } from '../../components/ui/button';
import { PersonName } from '../../components/ui/person-name';
import { Table, Td, Th } from '../../components/ui/table';
import { paths } from '../../config/paths';
import { AlertBadge } from '../../features/alerts';
import {
  BatteryState,
  ConnectionState,
  LastSeen,
  LatestValue,
  staleAgeMs,
  useWearerStateText,
  type WearerStateText,
  WornState,
} from '../../features/live';
import { AppLink } from '../../lib/app-path';
import { useWindowRows } from '../../lib/use-window-rows';

/** A row's height before it is measured (one line of text and padding). */
const ROW_ESTIMATE = 41;

/** The row's own words beside the wearer state's (one object for the whole table). */
interface RowWords {
  none: string;
  alerts: string;
  noAlerts: string;
  battery: (value: number) => string;
}

interface WearerTableProps {
  wearers: readonly DeviceSummary[];
  now: number;
  label: string;
}

/**
 * Wide screens: the wearer table, drawn a screen at a time. It stays a table to a screen reader:
 * the table says how many rows it has (aria-rowcount) and each drawn row which one it is
 * (aria-rowindex; the heading row is 1), and every name is a link reached with Tab (the rows
 * ahead are drawn before focus gets there, and the page scrolls to the focused one).
 */
export function WearerTable({ wearers, now, label }: WearerTableProps) {
  const { t } = useTranslation(['common', 'live']);
  const listRef = useRef<HTMLDivElement>(null);
  const rows = useWindowRows(listRef, wearers.length, ROW_ESTIMATE);
  // The words of every row, made once here (scrolling mounts rows all the time).
  const text = useWearerStateText();
  const words = useMemo(
    () => ({
      none: t('common.none'),
      alerts: t('live:columns.alerts'),
      noAlerts: t('live:values.noAlerts'),
      battery: (value: number) => t('devices.batteryValue', { value }),
    }),
    [t],
  );
  return (
    <div ref={listRef}>
      <Table data-testid="wearer-table" label={label} aria-rowcount={wearers.length + 1}>
        <caption className="sr-only">{label}</caption>
        <thead>
          <tr aria-rowindex={1}>
            <Th pinned>{t('devices.columns.name')}</Th>
            <Th>{t('devices.columns.group')}</Th>
            <Th>{t('devices.columns.bracelet')}</Th>
            <Th>{t('live:columns.heartRate')}</Th>
            <Th>{t('live:columns.skinTemperature')}</Th>
            <Th>{t('live:columns.worn')}</Th>
            <Th>{t('devices.columns.battery')}</Th>
            <Th>{t('live:columns.connection')}</Th>
            <Th>{t('live:columns.lastSeen')}</Th>
            <Th>{t('live:columns.alerts')}</Th>
          </tr>
        </thead>
        <tbody>
          {rows.before > 0 && (
            <tr aria-hidden="true" style={{ height: rows.before }}>
              <td colSpan={10} />
            </tr>
          )}
          {rows.items.map((item) => {
            const wearer = wearers[item.index]!;
            return (
              <WearerRow
                key={wearer.uid}
                wearer={wearer}
                index={item.index}
                now={now}
                measure={rows.measure}
                text={text}
                words={words}
              />
            );
          })}
          {rows.after > 0 && (
            <tr aria-hidden="true" style={{ height: rows.after }}>
              <td colSpan={10} />
            </tr>
          )}
        </tbody>
      </Table>
    </div>
  );
}

/** One wearer's row; redrawn only when that wearer's state (or the clock) changes. */
const WearerRow = memo(function WearerRow({
  wearer,
  index,
  now,
  measure,
  text,
  words,
}: {
  wearer: DeviceSummary;
  index: number;
  now: number;
  measure: (el: Element | null) => void;
  text: WearerStateText;
  words: RowWords;
}) {
  const { none } = words;
  const { battery } = wearer;
  const staleMs = staleAgeMs(wearer, now);
  const stale = staleMs !== null;
  return (
    <tr
      ref={measure}
      data-index={index}
      aria-rowindex={index + 2}
      data-testid="wearer-row"
      data-uid={wearer.uid}
    >
      <Td pinned>
        <AppLink
          to={paths.device.detail.build({ clientId: wearer.clientId, uid: wearer.uid })}
          className={`font-medium text-teal-800 hover:underline ${focusRing}`}
        >
          <PersonName name={wearer.name} />
        </AppLink>
      </Td>
      <Td>{wearer.groupName ?? none}</Td>
      <Td>{wearer.deviceName ?? wearer.serialNumber ?? none}</Td>
      <Td className="tabular-nums" data-testid="live-heart-rate">
        <LatestValue staleMs={staleMs} text={text}>
          {text.heartRate(wearer.heartRate)}
        </LatestValue>
      </Td>
      <Td className="tabular-nums">
        <LatestValue staleMs={staleMs} text={text} showAge={false}>
          {text.skinTemperature(wearer.skinTemperature)}
        </LatestValue>
      </Td>
      <Td>
        <LatestValue staleMs={staleMs} text={text} showAge={false}>
          <WornState worn={wearer.worn} text={text} stale={stale} />
        </LatestValue>
      </Td>
      <Td className="tabular-nums">
        <LatestValue staleMs={staleMs} text={text} showAge={false}>
          <BatteryState
            battery={battery}
            label={battery === null ? none : words.battery(battery)}
            stale={stale}
          />
        </LatestValue>
      </Td>
      <Td>
        <ConnectionState connection={wearer.connection} text={text} />
      </Td>
      <Td>
        <LastSeen at={wearer.lastSeenAt} now={now} text={text} />
      </Td>
      <Td data-testid="live-alerts">
        {wearer.openAlerts.length > 0 ? (
          <ul className="flex flex-wrap gap-1" aria-label={words.alerts}>
            {wearer.openAlerts.map((alert) => (
              <li key={alert.id}>
                <AlertBadge type={alert.type} level={alert.level} />
              </li>
            ))}
          </ul>
        ) : (
          <span className="text-slate-600">{words.noAlerts}</span>
        )}
      </Td>
    </tr>
  );
});
