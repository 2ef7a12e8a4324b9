// A campaign's results: what it gave and took back, how many members it reached, and their checks and spend at its
// venues while it ran (GET /dashboard/api/campaigns/{id}/results).
import { Alert, Loader, Modal, SimpleGrid, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { call, client, money, type Campaign } from '../api';
import { when } from '../dates';
import { useVenue } from '../session';
import { Stat } from './Stat';

export function CampaignResults({ campaign, stamps, onClose }: { campaign: Campaign; stamps: boolean; onClose: () => void }) {
  const venue = useVenue();
  const results = useQuery({
    queryKey: ['campaigns', campaign.id, 'results'],
    queryFn: () => call(client.GET('/dashboard/api/campaigns/{id}/results', { params: { path: { id: campaign.id } } })),
  });
  const r = results.data;
  return (
    <Modal opened onClose={onClose} title={`Results of ${campaign.name}`} size="lg">
      {results.error && <Alert color="red">{results.error.message}</Alert>}
      {!r && !results.error && <Loader size="sm" aria-label="Loading results" />}
      {r && (
        <>
          <Text size="sm" mb="sm">
            {r.to
              ? `Ran from ${when(r.from, venue)} to ${when(r.to, venue)}.`
              : `Running since ${when(r.from, venue)}${campaign.ends_at ? `, until ${when(campaign.ends_at, venue)}` : ''}.`}
          </Text>
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <Stat label="Given" value={stamps ? `${r.credited} stamps` : money(r.credited, venue)} hint={`${r.credits} ${r.credits === 1 ? 'credit' : 'credits'}, less what voids and refunds took back`} />
            <Stat label="Members reached" value={r.members_reached} hint="given at least one credit" />
            <Stat label="Their checks" value={r.checks} hint="while it ran, at its venues" />
            <Stat label="Their spend" value={money(r.spend, venue)} hint="those checks, less refunds" />
          </SimpleGrid>
        </>
      )}
    </Modal>
  );
}
