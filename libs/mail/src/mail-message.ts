/** An email as the service writes it: both parts, Spanish first with English below (contract §12, §14). */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}
