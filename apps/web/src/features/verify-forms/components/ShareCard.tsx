import {
  Box,
  Button,
  CopyButton,
  Group,
  Stack,
  Text,
  TextInput,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconCopy, IconDownload, IconExternalLink } from '@tabler/icons-react';
import { useIsMutating, useQuery } from '@tanstack/react-query';
import type { VerifyForm } from '@veriform/contracts';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useRef, useState } from 'react';
import { SectionCard } from '../../../components/layout/SectionCard';
import { useServices } from '../../../lib/services';
import { consentVersionsQueryOptions, verifyFormChangeKey } from '../api';

export const QR_CODE_LABEL = 'QR code of the public link';
/** On screen; the downloaded SVG is a vector and carries a larger nominal size for print layouts. */
const QR_SIZE = 168;
const QR_DOWNLOAD_SIZE = 1024;

/** The phone the preview imitates (CSS pixels of a common handset), shown scaled down to fit beside the QR code. */
export const PREVIEW_VIEWPORT = { width: 375, height: 700 };
const PREVIEW_SCALE = 0.6;

function absoluteUrl(url: string): string {
  try {
    return new URL(url, window.location.origin).href;
  } catch {
    return url;
  }
}

/** "Sign-up (Spring '26)" → "sign-up-spring-26-qr-code.svg": safe on every file system. */
export function qrFileName(formName: string): string {
  const slug = formName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${slug || 'form'}-qr-code.svg`;
}

/** Saves the rendered QR code as a standalone SVG file (vector: sharp at any print size). */
function downloadSvg(svg: SVGSVGElement, fileName: string) {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.setAttribute('width', String(QR_DOWNLOAD_SIZE));
  copy.setAttribute('height', String(QR_DOWNLOAD_SIZE));
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}`;
  const href = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser reads the blob when the click is handled; revoking on the next tick is safe.
  window.setTimeout(() => URL.revokeObjectURL(href), 0);
}

function QrCode({ url, formName }: { url: string; formName: string }) {
  const svgRef = useRef<SVGSVGElement>(null);
  return (
    <Stack gap="xs" align="flex-start">
      <Box p={4} bg="white" style={{ borderRadius: 'var(--mantine-radius-sm)', lineHeight: 0 }}>
        <QRCodeSVG
          ref={svgRef}
          value={url}
          size={QR_SIZE}
          // "M" survives a smudged print or a logo sticker; the quiet zone of 4 modules is what scanners expect.
          level="M"
          marginSize={4}
          role="img"
          aria-label={QR_CODE_LABEL}
          title={QR_CODE_LABEL}
        />
      </Box>
      <Button
        variant="default"
        size="xs"
        leftSection={<IconDownload size={14} aria-hidden="true" />}
        onClick={() => svgRef.current && downloadSvg(svgRef.current, qrFileName(formName))}
      >
        Download QR code
      </Button>
    </Stack>
  );
}

/** What of the form the public page shows (the company's name and logo are changed on another page). */
function publicFace(form: VerifyForm): string {
  return JSON.stringify([form.isLive, form.name, form.language, form.bannerImage]);
}

/**
 * How many consent versions were published since the page read them: the public page shows the newest, so each one
 * published here (or by a teammate, once the list is read again) is a new face. The first read of the list is what the
 * frame already shows, so it counts nothing.
 */
function useConsentRevision(form: VerifyForm): number {
  const { api } = useServices();
  const { data: versions } = useQuery(consentVersionsQueryOptions(api, form.account, form.id));
  const newest = versions === undefined ? undefined : (versions[0]?.id ?? null);
  const [seen, setSeen] = useState({ newest, published: 0 });
  if (newest !== undefined && newest !== seen.newest)
    setSeen({ newest, published: seen.newest === undefined ? seen.published : seen.published + 1 });
  return seen.published;
}

/**
 * Changes when what the public page shows has changed on the server: once a change of the form or a new consent
 * version is saved, not at its optimistic update (the live switch flips before the server has it, and a reload then
 * would show the old page).
 */
export function usePreviewRevision(form: VerifyForm): string {
  const saving = useIsMutating({ mutationKey: verifyFormChangeKey(form.id) }) > 0;
  const face = `${publicFace(form)}#${useConsentRevision(form)}`;
  const [revision, setRevision] = useState(face);
  useEffect(() => {
    if (!saving) setRevision(face);
  }, [saving, face]);
  return revision;
}

/**
 * The public page in a phone-sized frame. The server shows an inactive form to the account's members as a preview
 * (sending refused), so the frame works before the form goes live. It loads again whenever the form's public face
 * changes (activated, banner uploaded, renamed, consent text published…).
 */
function Preview({ url, form }: { url: string; form: VerifyForm }) {
  const { width, height } = PREVIEW_VIEWPORT;
  const revision = usePreviewRevision(form);
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        Preview
      </Text>
      <Box
        w={width * PREVIEW_SCALE}
        h={height * PREVIEW_SCALE}
        style={{
          overflow: 'hidden',
          border: '1px solid var(--mantine-color-default-border)',
          borderRadius: 'var(--mantine-radius-md)',
        }}
      >
        <iframe
          key={revision}
          title={`Preview of ${form.name}`}
          src={url}
          width={width}
          height={height}
          loading="lazy"
          style={{ border: 0, transform: `scale(${PREVIEW_SCALE})`, transformOrigin: '0 0' }}
        />
      </Box>
    </Stack>
  );
}

/** The public link: copy it, open it, print or download its QR code, and see what consumers see. */
export function ShareCard({ form }: { form: VerifyForm }) {
  const url = absoluteUrl(form.publicUrl);
  return (
    <SectionCard title="Share">
      <TextInput
        label="Public link"
        value={url}
        readOnly
        onFocus={(event) => event.currentTarget.select()}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      />
      <Group gap="sm">
        <CopyButton value={url} timeout={2000}>
          {({ copied, copy }) => (
            <>
              <Tooltip label="Copied" opened={copied} withArrow>
                <Button
                  variant="light"
                  leftSection={<IconCopy size={16} aria-hidden="true" />}
                  onClick={copy}
                  aria-describedby={undefined}
                >
                  Copy link
                </Button>
              </Tooltip>
              {/* The tooltip is for the eyes; screen readers hear this (the region exists before its text does). */}
              <VisuallyHidden role="status" aria-live="polite">
                {copied ? 'Public link copied' : ''}
              </VisuallyHidden>
            </>
          )}
        </CopyButton>
        <Button
          component="a"
          href={url}
          target="_blank"
          rel="noopener noreferrer"
          variant="default"
          leftSection={<IconExternalLink size={16} aria-hidden="true" />}
        >
          Open form
        </Button>
      </Group>
      <Group align="flex-start" gap="xl" wrap="wrap">
        <Stack gap="xs">
          <Text size="sm" fw={500}>
            QR code
          </Text>
          <QrCode url={url} formName={form.name} />
          <Text size="xs" c="dimmed" maw={QR_SIZE + 8}>
            Print it on a counter card or a receipt: a phone camera opens the form.
          </Text>
        </Stack>
        <Preview url={url} form={form} />
      </Group>
    </SectionCard>
  );
}
