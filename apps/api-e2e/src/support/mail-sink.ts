// The SMTP sink moved to libs/testing, where the register's integration tests use it too.
export { MailSink, decodeBody, type ReceivedMail } from '@custodian/testing';
