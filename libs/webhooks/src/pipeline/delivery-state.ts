/** A destination row's delivery columns, as the pipeline keeps them current. */
export interface DeliveryColumns {
  signing_secret_preview: string;
  delivery_attempts: number;
  last_delivery_status: string | null;
  last_delivery_error: string | null;
  last_delivered_at: Date | null;
  last_failed_at: Date | null;
}

/** The delivery state a subscription or endpoint shows its owner (the secret only by its preview). */
export function deliveryState(row: DeliveryColumns) {
  return {
    signing_secret_preview: row.signing_secret_preview,
    delivery_attempts: row.delivery_attempts,
    last_delivery_status: row.last_delivery_status as 'delivered' | 'failed' | null,
    last_delivery_error: row.last_delivery_error,
    last_delivered_at: row.last_delivered_at?.toISOString() ?? null,
    last_failed_at: row.last_failed_at?.toISOString() ?? null,
  };
}
