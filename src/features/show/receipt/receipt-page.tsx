import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
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

/** One line of the receipt: its term and what it says. */
function Fact(props: { term: string; figure?: boolean; className?: string; children: ReactNode }) {
  return (
    <div className={props.className}>
      <dt>{props.term}</dt>
      <dd className={props.figure ? 'figure' : undefined}>{props.children}</dd>
    </div>
  );
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
        <Fact term="Card">{receipt.title}</Fact>
        {slab && <Fact term="Grade">{slab}</Fact>}
        {receipt.certNumber && (
          <Fact term="Cert" figure>
            {receipt.certNumber}
          </Fact>
        )}
        <Fact term="Show">{receipt.showName ?? 'A card show'}</Fact>
        <Fact term="Date" figure>
          {formatDateTime(receipt.soldAt)}
        </Fact>
        {seller && <Fact term="Seller">{seller}</Fact>}
        {receipt.discountCents > 0 && (
          <>
            <Fact term="Asking" figure>
              {formatDollars(receipt.priceCents + receipt.discountCents)}
            </Fact>
            <Fact term="Discount" figure>
              −{formatDollars(receipt.discountCents)}
            </Fact>
          </>
        )}
        <Fact term="Total" figure className="receipt-total">
          {formatDollars(receipt.priceCents)}
        </Fact>
        <Fact term="Paid">
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
