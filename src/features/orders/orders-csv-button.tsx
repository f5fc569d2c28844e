import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Order } from '../../client';
import { useApiClient } from '../../api/api-context';
import { download } from '../../lib/download';
import { countOf } from '../../lib/format';
import { fetchCardFacts } from '../../api/inventory/inventory-queries';
import { ordersCsv } from './orders-csv';

/** Downloads the orders shown (the current filter) as CSV, with each card's cost joined in. */
export function OrdersCsvButton({ orders, name }: { orders: readonly Order[]; name: string }) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');
  const exportCsv = async () => {
    setState('busy');
    try {
      const costs = await fetchCardFacts(client, queryClient);
      const csv = ordersCsv(orders, (id) => costs?.get(id)?.cost);
      download(`orders-${name}-${new Date().toISOString().slice(0, 10)}.csv`, csv);
      setState('idle');
    } catch {
      setState('failed');
    }
  };
  return (
    <>
      <button type="button" onClick={() => void exportCsv()} disabled={state === 'busy'}>
        {state === 'busy' ? 'Preparing CSV…' : `Export ${countOf(orders.length, 'order')} (CSV)`}
      </button>
      {state === 'failed' && <span role="alert">The CSV could not be made.</span>}
    </>
  );
}
