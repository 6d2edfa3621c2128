import { IsString } from 'class-validator';
import { TextLength } from '../fields/text-length';
import { reply, rpc } from '../rpc/contract';
import { ConsoleRecordMessage } from '../rpc/messages';
import { DeliveriesInput, DeliverySearchQuery, ResendDeliveriesBody } from './delivery.inputs';
import type {
  DeliveriesResentView,
  DeliveryDetailView,
  DeliveryLogEntry,
  DeliverySearchView,
  DeliverySummaryView,
} from './delivery.views';

/**
 * The console's delivery-log messages (WorkerConsoleRpc). The gateway sets `workspace` to the
 * signed-in member's workspace: every lookup is scoped to it.
 */

export class DeliverySearchMessage extends DeliverySearchQuery {
  @IsString() @TextLength(1, 64) workspace!: string;
}

/** POST /console/api/deliveries/resend: every failed delivery matching, BULK_RESEND_MAX at most. */
export class DeliveriesResendMessage extends ResendDeliveriesBody {
  @IsString() @TextLength(1, 64) workspace!: string;
}

/** The delivery log of the worker's admin queue, for the admin CLI (WorkerAdminRpc). */
export const DELIVERY_ADMIN_RPC = {
  deliveries: rpc('admin.deliveries', DeliveriesInput, reply<DeliveryLogEntry[]>()),
};

/** The console's delivery log, on the worker's admin queue (WorkerConsoleRpc). */
export const DELIVERY_CONSOLE_RPC = {
  deliverySearch: rpc(
    'console.delivery.search',
    DeliverySearchMessage,
    reply<DeliverySearchView>(),
  ),
  deliveryGet: rpc('console.delivery.get', ConsoleRecordMessage, reply<DeliveryDetailView>()),
  deliveryResend: rpc(
    'console.delivery.resend',
    ConsoleRecordMessage,
    reply<DeliverySummaryView>(),
  ),
  deliveriesResend: rpc(
    'console.delivery.resend.bulk',
    DeliveriesResendMessage,
    reply<DeliveriesResentView>(),
  ),
};
