import { Link, useParams } from 'react-router';
import { Fact } from '../../../components/fact';
import { formatDollars } from '../../../shared/money';
import { useShowReceipt, type Receipt } from '../../../api/shows/show-receipt';
import { Loading } from '../../../components/states';
import { formatDateTime } from '../../../lib/format';
import { bootSession } from '../../../lib/session';
import { paths } from '../../../shared/paths';
import { tenderWords } from '../../../shared/show-tenders';
import { ReceiptQr } from './receipt-qr';
import './receipt.css';

/** "Slabdesk receipt R-…": what the code carries, for the buyer's phone to keep. */
function receiptText(receipt: Receipt, seller: string | null): string {
  const slab = [receipt.grader, receipt.grade].filter(Boolean).join(' ');
  return [
    `Receipt ${receipt.number}${receipt.waiting ? ' (waiting to be sent)' : ''}`,
    [receipt.showName, formatDateTime(receipt.soldAt)].filter(Boolean).join(', '),
    `${receipt.title}${slab ? `, ${slab}` : ''}${receipt.certNumber ? `, cert ${receipt.certNumber}` : ''}`,
    receipt.discountCents > 0
      ? `Asking ${formatDollars(receipt.priceCents + receipt.discountCents)}, discount ${formatDollars(receipt.discountCents)}`
      : null,
    `Total ${formatDollars(receipt.priceCents)}: ${tenderWords(receipt.tenders)}`,
    seller ? `Sold by ${seller}` : null,
  ]
    .filter((line): line is string => line !== null)
    .join('\n');
}

/** A sale's receipt, to show the buyer on the phone or let them scan its code. */
export function ReceiptPage() {
  const { showKey = '', entryKey = '' } = useParams();
  const { receipt, pending } = useShowReceipt(showKey, entryKey);
  const seller = bootSession()?.name ?? null;
  if (!receipt) {
    return (
      <section aria-labelledby="receipt-heading" className="receipt">
        <h1 id="receipt-heading">Receipt</h1>
        {pending ? (
          <Loading label="Loading the receipt…" />
        ) : (
          <p>This sale is not on this device, and the ledger could not be read just now.</p>
        )}
        <Link to={paths.show.to(showKey)}>Back to the show</Link>
      </section>
    );
  }
  const slab = [receipt.grader, receipt.grade].filter(Boolean).join(' ');
  return (
    <section aria-labelledby="receipt-heading" className="receipt">
      <h1 id="receipt-heading">
        Receipt <span className="figure">{receipt.number}</span>
      </h1>
      {receipt.waiting && (
        <p className="banner banner-warn" role="status">
          Waiting to be sent: saved on this phone, it reaches the ledger when the connection is
          back.
        </p>
      )}
      {receipt.voided && (
        <p className="banner banner-error" role="status">
          This sale was undone.
        </p>
      )}
      <dl className="receipt-facts">
        {(
          [
            ['Card', receipt.title],
            ['Grade', slab || undefined],
            ['Cert', receipt.certNumber || undefined, true],
            ['Show', receipt.showName ?? 'A card show'],
            ['Date', formatDateTime(receipt.soldAt), true],
            ['Seller', seller ?? undefined],
            ...(receipt.discountCents > 0
              ? [
                  ['Asking', formatDollars(receipt.priceCents + receipt.discountCents), true],
                  ['Discount', `−${formatDollars(receipt.discountCents)}`, true],
                ]
              : []),
          ] as [string, string | undefined, boolean?][]
        ).map(
          ([label, value, figure]) =>
            value !== undefined && (
              <Fact key={label} box label={label} figure={figure}>
                {value}
              </Fact>
            ),
        )}
        <Fact box="receipt-total" label="Total" figure>
          {formatDollars(receipt.priceCents)}
        </Fact>
        <Fact box label="Paid">
          <ul className="receipt-tenders">
            {receipt.tenders.map((tender, index) => (
              <li key={index} className="figure">
                {tenderWords([tender])}
              </li>
            ))}
          </ul>
        </Fact>
      </dl>
      <ReceiptQr
        text={receiptText(receipt, seller)}
        label={`Code to scan: receipt ${receipt.number}`}
      />
      <p>
        <Link className="button" to={paths.show.to(showKey)}>
          Back to the show
        </Link>
      </p>
    </section>
  );
}

export { ReceiptPage as Component };
