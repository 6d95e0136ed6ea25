import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { publicCertificateQueryOptions } from '../../features/certificates/api';
import { CertificateLayout } from '../../features/certificates/components/CertificateLayout';
import {
  CertificateNotFound,
  CertificatePage,
  CertificatePageSkeleton,
} from '../../features/certificates/components/CertificatePage';
import { useServices } from '../../lib/services';

/**
 * The public check page of a certificate (issue #19): no login, linked from the PDF's QR code. Not under `_public`:
 * a certificate needs a wider column than the auth pages'. An unknown id is answered on the page, in its frame.
 */
export const Route = createFileRoute('/certificates/$certId')({
  loader: ({ context, params }) =>
    context.queryClient.ensureQueryData(publicCertificateQueryOptions(context.api, params.certId)),
  pendingComponent: () => (
    <CertificateLayout>
      <CertificatePageSkeleton />
    </CertificateLayout>
  ),
  component: CertificateRoute,
});

function CertificateRoute() {
  const { api } = useServices();
  const { certId } = Route.useParams();
  const { data } = useSuspenseQuery(publicCertificateQueryOptions(api, certId));
  return (
    <CertificateLayout>
      {data ? (
        <CertificatePage key={certId} certId={certId} certificate={data} />
      ) : (
        <CertificateNotFound key={certId} certId={certId} />
      )}
    </CertificateLayout>
  );
}
