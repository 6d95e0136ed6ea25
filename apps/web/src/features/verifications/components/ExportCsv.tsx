import { Button, Group, Paper, Progress, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { formatCount } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { downloadCsv, type ExportProgress, saveBlob } from '../export';

type ExportState = { status: 'idle' } | ({ status: 'running' } & ExportProgress);

/** What the progress line says: "Exporting… 12,345 of 50,000 rows", or without the total when it is unknown. */
export function progressText({ rows, total }: ExportProgress): string {
  return total === null
    ? `Exporting… ${formatCount(rows)} ${rows === 1 ? 'row' : 'rows'}`
    : `Exporting… ${formatCount(Math.min(rows, total))} of ${formatCount(total)} rows`;
}

/**
 * Runs one export at a time: reads the stream with progress, saves the file, toasts the outcome (SPEC §9: success
 * 7 s, error 10 s). Cancel (or leaving the page) aborts the request, so the server stops streaming too.
 */
export function useCsvExport() {
  const [state, setState] = useState<ExportState>({ status: 'idle' });
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(async (url: string) => {
    if (controller.current) return;
    const abort = new AbortController();
    controller.current = abort;
    setState({ status: 'running', rows: 0, total: null });
    try {
      const result = await downloadCsv(url, {
        signal: abort.signal,
        onProgress: (progress) => setState({ status: 'running', ...progress }),
      });
      saveBlob(result.blob, result.filename);
      notify.success(
        'Export ready',
        `${result.rows === 1 ? '1 row' : `${formatCount(result.rows)} rows`} saved as ${result.filename}.`,
      );
    } catch (error) {
      if (!abort.signal.aborted) {
        notify.error('Export failed', error instanceof Error ? error.message : String(error));
      }
    } finally {
      controller.current = null;
      setState({ status: 'idle' });
    }
  }, []);

  const cancel = useCallback(() => controller.current?.abort(), []);
  return { state, start, cancel };
}

/** The "Export CSV" button; the page passes the export of its current filters and sort to `useCsvExport().start`. */
export function ExportCsvButton({
  running,
  disabled = false,
  onExport,
}: {
  running: boolean;
  disabled?: boolean;
  onExport: () => void;
}) {
  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} aria-hidden="true" />}
      onClick={onExport}
      loading={running}
      disabled={disabled}
    >
      Export CSV
    </Button>
  );
}

/** The progress panel while an export runs: a bar (indeterminate without a total), the count, and Cancel. */
export function ExportProgressPanel({
  progress,
  onCancel,
}: {
  progress: ExportProgress;
  onCancel: () => void;
}) {
  const text = progressText(progress);
  const value = progress.total ? Math.min(100, Math.round((progress.rows / progress.total) * 100)) : 100;
  return (
    <Paper withBorder radius="md" p="sm" mb="md">
      <Group justify="space-between" wrap="nowrap" gap="md">
        <div style={{ flex: 1 }}>
          <Text size="sm" mb={6} role="status">
            {text}
          </Text>
          {progress.total === null ? (
            // Without X-Total-Count the bar only says "working" (striped and moving); the status line counts rows,
            // so assistive technology is not told a percentage that does not exist.
            <Progress value={100} striped animated aria-hidden="true" />
          ) : (
            <Progress aria-label="Export progress" value={value} />
          )}
        </div>
        <Button variant="subtle" color="red" onClick={onCancel}>
          Cancel export
        </Button>
      </Group>
    </Paper>
  );
}
