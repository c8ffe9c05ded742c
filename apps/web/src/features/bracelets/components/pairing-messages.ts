import type { TFunction } from 'i18next';
import { BraceletChangeError } from '../api/bracelet-change-error';

/** A refused pairing, unlink or setting change in the reader's language (the server's message for the rest). */
export function refusalText(t: TFunction<'wearer'>, error: unknown): string {
  if (!(error instanceof BraceletChangeError)) return t('bracelet.errors.unknown');
  switch (error.code ?? '') {
    case 'BRACELET_NOT_FOUND':
      return t('bracelet.errors.braceletNotFound');
    case 'GATEWAY_NOT_FOUND':
      return t('bracelet.errors.gatewayNotFound');
    case 'BRACELET_CHANGED':
      return t('bracelet.errors.changed');
    case 'DEVICE_NOT_LINKED':
      return t('bracelet.errors.notLinked');
    default:
      if (error.status === 403) return t('bracelet.errors.forbidden');
      if (error.status >= 600) return t('bracelet.errors.network');
      return error.serverMessage ?? t('bracelet.errors.unknown');
  }
}
