import type { AlertView } from '@wearable/domain';
import { useTranslation } from 'react-i18next';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { paths } from '../../../config/paths';
import { AppLink } from '../../../lib/app-path';

/**
 * After confirming an SOS or fall from a device no wearer holds (issue 34): what to do so that its
 * next call comes as a wearer's. "Register this bracelet" opens the gateway that heard it (its
 * "heard, not registered" list registers a device in one click); "Assign to a wearer" opens the
 * wearer list, whose device settings pair a bracelet to the chosen wearer.
 */
export function UnassignedDeviceDialog({
  alert,
  onClose,
}: {
  alert: AlertView | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('alerts');
  const device = alert?.device ?? null;
  return (
    <Dialog
      open={alert !== null && device !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t('unassigned.actionsTitle')}
      description={t('unassigned.actionsIntro', { serial: device?.serial ?? '' })}
      data-testid="unassigned-device-dialog"
    >
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        {alert !== null && device?.gatewayId && (
          <AppLink
            className={buttonClasses('primary', 'min-h-11')}
            data-testid="unassigned-register"
            to={paths.gateways.detail.build({
              organizationId: alert.clientId,
              gatewayId: device.gatewayId,
            })}
            onClick={onClose}
          >
            {t('unassigned.register')}
          </AppLink>
        )}
        <AppLink
          className={buttonClasses('outline', 'min-h-11')}
          data-testid="unassigned-assign"
          to={paths.devices.list.build()}
          onClick={onClose}
        >
          {t('unassigned.assign')}
        </AppLink>
        <Button variant="link" className="min-h-11" onClick={onClose}>
          {t('unassigned.close')}
        </Button>
      </div>
    </Dialog>
  );
}
