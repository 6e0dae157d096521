export * from './feedback-event';
export * from './delivery-feedback.service';
export * from './delivery-feedback.repository';
export * from './delivery-feedback.module';
export { SNS_OPTIONS, SnsMessages, type SnsOptions } from './sources/sns-messages';
export { SENDGRID_SIGNATURE_HEADER, SENDGRID_TIMESTAMP_HEADER } from './sources/sendgrid.source';
