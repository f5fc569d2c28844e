import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useApiClient } from '../../../api/api-context';
import { listingRulesQuery } from '../../../api/rules/rules-queries';
import { Money, ShortDate } from '../../../components/figure';
import { paths } from '../../../shared/paths';

/** The next change a pricing rule makes to this listing, and the rule that last changed it. */
export function RuleLine({ listingId }: { listingId: string }) {
  const client = useApiClient();
  const rules = useQuery(listingRulesQuery(client, listingId));
  const data = rules.data;
  if (!data || (data.upcoming.length === 0 && !data.touched)) return null;
  return (
    <>
      <dt>Pricing rules</dt>
      <dd className="rule-line">
        {data.upcoming.map((next) => (
          <p key={next.ruleId}>
            <Link to={paths.rules.to(next.ruleId)}>A rule</Link>{' '}
            {next.after.price !== undefined ? (
              <>
                lowers this on <ShortDate iso={next.at} /> to <Money amount={next.after.price} />
              </>
            ) : next.after.minimum_offer ? (
              <>
                sets its minimum offer on <ShortDate iso={next.at} /> to{' '}
                <Money amount={next.after.minimum_offer} />
              </>
            ) : (
              <>
                changes this on <ShortDate iso={next.at} />
              </>
            )}
            {next.floor !== null && (
              <>
                {' '}
                (floor <Money amount={next.floor} />)
              </>
            )}
            <span className="visually-hidden"> — {next.ruleName}</span>
          </p>
        ))}
        {data.touched && (
          <p className="muted">
            Last changed by the rule{' '}
            <Link to={paths.rules.to(data.touched.ruleId)}>
              {data.touched.ruleName ?? 'a rule since deleted'}
            </Link>{' '}
            on <ShortDate iso={data.touched.at} />
          </p>
        )}
      </dd>
    </>
  );
}
