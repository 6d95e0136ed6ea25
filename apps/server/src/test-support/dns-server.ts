import { createSocket, type RemoteInfo } from 'node:dgram';

/**
 * A DNS server on 127.0.0.1 for tests (company domains' TXT proof): it answers TXT questions from a table the test
 * fills, so the app's own resolver (node:dns's Resolver, pointed here with `servers`) asks a real server over UDP.
 * Names in `txt` answer their records (an empty list: the name exists with no TXT record, NOERROR); `failing` names
 * answer SERVFAIL; any other name NXDOMAIN. Only what c-ares needs for a TXT lookup is spoken (RFC 1035 §4).
 */
export type TestDnsServer = {
  /** `127.0.0.1:<port>`, for `createTxtLookup({ servers: [address] })`. */
  address: string;
  /** Lower-case name → its TXT records, each a list of character strings. */
  txt: Map<string, string[][]>;
  failing: Set<string>;
  /** Questions asked so far (lower-case names). */
  asked: string[];
  close(): Promise<void>;
};

const TYPE_TXT = 16;
const CLASS_IN = 1;
const RCODE_SERVFAIL = 2;
const RCODE_NXDOMAIN = 3;

/** The question's name and where the question ends (after QTYPE and QCLASS), or null when it cannot be read. */
function readQuestion(message: Buffer): { name: string; type: number; end: number } | null {
  let offset = 12;
  const labels: string[] = [];
  while (offset < message.length) {
    const length = message[offset] ?? 0;
    offset += 1;
    if (length === 0) break;
    if (length > 63) return null;
    labels.push(message.subarray(offset, offset + length).toString('latin1'));
    offset += length;
  }
  if (offset + 4 > message.length) return null;
  return { name: labels.join('.').toLowerCase(), type: message.readUInt16BE(offset), end: offset + 4 };
}

function answer(query: Buffer, questionEnd: number, rcode: number, records: string[][]): Buffer {
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  const recursionDesired = (query[2] ?? 0) & 0x01;
  header.writeUInt16BE(0x8400 | (recursionDesired << 8) | 0x80 | rcode, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  const answers = records.map((strings) => {
    const rdata = Buffer.concat(
      strings.map((text) => {
        const bytes = Buffer.from(text, 'utf8');
        return Buffer.concat([Buffer.from([bytes.length]), bytes]);
      }),
    );
    const fixed = Buffer.alloc(12);
    fixed.writeUInt16BE(0xc00c, 0); // the question's name
    fixed.writeUInt16BE(TYPE_TXT, 2);
    fixed.writeUInt16BE(CLASS_IN, 4);
    fixed.writeUInt32BE(60, 6);
    fixed.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([fixed, rdata]);
  });
  return Buffer.concat([header, query.subarray(12, questionEnd), ...answers]);
}

export async function startTestDnsServer(): Promise<TestDnsServer> {
  const socket = createSocket('udp4');
  const txt = new Map<string, string[][]>();
  const failing = new Set<string>();
  const asked: string[] = [];
  socket.on('message', (message: Buffer, from: RemoteInfo) => {
    const question = readQuestion(message);
    if (!question) return;
    asked.push(question.name);
    const records = txt.get(question.name);
    const reply = failing.has(question.name)
      ? answer(message, question.end, RCODE_SERVFAIL, [])
      : records === undefined
        ? answer(message, question.end, RCODE_NXDOMAIN, [])
        : answer(message, question.end, 0, question.type === TYPE_TXT ? records : []);
    socket.send(reply, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return {
    address: `127.0.0.1:${port}`,
    txt,
    failing,
    asked,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
