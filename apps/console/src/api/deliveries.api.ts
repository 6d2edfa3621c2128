import type {
  DeliveryDetail,
  DeliveryFilters,
  DeliveryPage,
  DeliverySummary,
  ResendFilters,
} from '@custodian/console-client';
import { client, send } from './client';

export function listDeliveries(query: DeliveryFilters): Promise<DeliveryPage> {
  return send(
    'see the delivery log',
    client.GET('/console/api/deliveries', { params: { query } }),
    'webhooks.view',
  );
}

export function getDelivery(id: string): Promise<DeliveryDetail> {
  return send(
    'see the delivery log',
    client.GET('/console/api/deliveries/{id}', { params: { path: { id } } }),
    'webhooks.view',
  );
}

export function resendDelivery(id: string): Promise<DeliverySummary> {
  return send(
    'resend deliveries',
    client.POST('/console/api/deliveries/{id}/resend', { params: { path: { id } } }),
    'webhooks.manage',
  );
}

export function resendFailedDeliveries(filters: ResendFilters): Promise<{ resent: number }> {
  return send(
    'resend deliveries',
    client.POST('/console/api/deliveries/resend', { body: filters }),
    'webhooks.manage',
  );
}
