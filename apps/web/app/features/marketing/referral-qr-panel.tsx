// Placeholder: the referral QR panel (spec §2 "Referral QR panel") is built with the marketing feature.
export interface ReferralQrPanelProps {
  /** The code the QR points to (shown in file names). */
  code: string;
  /** The referral link encoded in the QR (BRIEF §6), or the optional appLink override. */
  link: string;
}

export function ReferralQrPanel({ link }: ReferralQrPanelProps) {
  return <p>{link}</p>;
}
