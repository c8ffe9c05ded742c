import { createPhoneEnrolment } from '@wearable/domain';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/endpoint';

/** A one-time enrolment code for a SMARTPHONE gateway and the /phone link holding it (15 minutes, single use). */
export const useCreatePhoneEnrolment = () =>
  useMutation({
    mutationFn: (gatewayId: string) => call(createPhoneEnrolment, { params: { gatewayId } }),
  });
