import { useQuery } from '@tanstack/react-query';
import { useApiClient } from '../../../api/api-context';
import { formatDollars } from '../../../shared/money';
import { tradeInsQuery } from '../../../api/shows/show-queries';

/** A cert taken in trade: its agreed value is the card's cost, said beside the cert. */
export function TradeInCost({ cert }: { cert: string | undefined }) {
  const client = useApiClient();
  const digits = cert?.trim() ?? '';
  const trades = useQuery({ ...tradeInsQuery(client), enabled: digits.length >= 7 });
  const trade = trades.data?.find((item) => item.certNumber === digits);
  if (!trade) return null;
  return (
    <p className="banner banner-info wide" role="note">
      Taken in trade at {trade.showName} for {formatDollars(trade.valueCents)}: that is this card’s
      cost.
    </p>
  );
}
