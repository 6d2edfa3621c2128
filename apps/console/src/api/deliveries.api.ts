import type {
  DeliveryDetail,
  DeliveryFilters,
  DeliveryPage,
  DeliverySummary,
  ResendFilters,
} from '@custodian/console-client';
import { client, send } from './client';

export function listDeliveries(query: DeliveryFilters): Promise<DeliveryPage> {
  return send('see the delivery log', client.GET('/console/api/deliveries', { params: { query } }));
}

export function getDelivery(id: string): Promise<DeliveryDetail> {
  return send(
    'see the delivery log',
    client.GET('/console/api/deliveries/{id}', { params: { path: { id } } }),
  );
}

export function resendDelivery(id: string): Promise<DeliverySummary> {
  return send(
    'resend deliveries',
    client.POST('/console/api/deliveries/{id}/resend', { params: { path: { id } } }),
  );
}

export function resendFailedDeliveries(filters: ResendFilters): Promise<{ resent: number }> {
  return send(
    'resend deliveries',
    client.POST('/console/api/deliveries/resend', { body: filters }),
  );
}
