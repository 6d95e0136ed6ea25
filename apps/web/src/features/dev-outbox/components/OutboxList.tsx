import { Anchor, Badge, Card, Group, Stack, Text } from '@mantine/core';
import type { OutboxMessage } from '@veriform/contracts';
import { Fragment, type ReactNode } from 'react';

const URL_PATTERN = /(https?:\/\/[^\s<>"')]+)/g;

/** Plain text with every http(s) URL turned into a real link. */
export function linkify(text: string): ReactNode[] {
  return text.split(URL_PATTERN).map((part, index) => {
    // split() with a capturing group puts the matches at odd indexes.
    const key = `${index}:${part.slice(0, 16)}`;
    return index % 2 === 1 ? (
      <Anchor key={key} href={part}>
        {part}
      </Anchor>
    ) : (
      <Fragment key={key}>{part}</Fragment>
    );
  });
}

export function OutboxList({ messages }: { messages: readonly OutboxMessage[] }) {
  if (messages.length === 0) return <Text c="dimmed">No messages.</Text>;
  return (
    <Stack gap="sm">
      {messages.map((message) => (
        <Card
          key={message.id}
          withBorder
          radius="md"
          padding="md"
          component="article"
          aria-label={message.subject ?? 'SMS'}
        >
          <Group justify="space-between" gap="xs" mb={6}>
            <Group gap="xs">
              <Badge variant="light" color={message.channel === 'email' ? 'indigo' : 'teal'}>
                {message.channel}
              </Badge>
              <Text size="sm">
                To: <strong>{message.to}</strong>
              </Text>
            </Group>
            <Text size="xs" c="dimmed" component="time" dateTime={message.createdAt}>
              {new Date(message.createdAt).toLocaleString()}
            </Text>
          </Group>
          {message.subject && <Text fw={600}>{message.subject}</Text>}
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            {linkify(message.text)}
          </Text>
        </Card>
      ))}
    </Stack>
  );
}
