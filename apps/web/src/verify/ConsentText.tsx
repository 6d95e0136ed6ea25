import { consentSegments } from '@veriform/contracts/consent-text';

/**
 * A consent text as the customer wrote it (issue #18): plain text, line breaks kept, http(s) URLs as links. React
 * renders each segment as text or an <a>, so nothing in the text is ever markup; links open in a new tab so the page
 * and what was typed stay.
 */
export function ConsentText({ text, id, className }: { text: string; id?: string; className?: string }) {
  return (
    <p id={id} className={className}>
      <ConsentSegments text={text} />
    </p>
  );
}

/** The text's segments, each as text or a link: what ConsentText puts in its paragraph, and the form page's preview. */
export function ConsentSegments({ text }: { text: string }) {
  return consentSegments(text).map((segment, index) =>
    segment.kind === 'link' ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the segments of one text, in order, never reordered
      <a key={index} href={segment.href} target="_blank" rel="noopener noreferrer">
        {segment.text}
      </a>
    ) : (
      // biome-ignore lint/suspicious/noArrayIndexKey: as above
      <span key={index}>{segment.text}</span>
    ),
  );
}
