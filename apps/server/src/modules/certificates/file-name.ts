/** A certificate's file name on download, and inside its PDF (the attached JSON); apart from pdf.ts so routes need not load pdf-lib. */
export const certificateFileName = (certificateId: string, format: 'json' | 'pdf') =>
  `veriform-certificate-${certificateId}.${format}`;
