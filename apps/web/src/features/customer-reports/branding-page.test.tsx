import type { ReportBranding, ReportBrandingBody } from '@aegis/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { mockServer } from '../../testing/mocks/server';
import { renderApp } from '../../testing/render-app';

const STORED_LOGO =
  'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=';

const BRANDING: ReportBranding = {
  mspName: 'Northwind Managed Services',
  primaryColour: '#0F4C81',
  contactEmail: 'service@northwind.example',
  contactPhone: '+44 20 7946 0000',
  website: 'northwind.example',
  supportMessage: '',
  logo: null,
};

function serve(initial: ReportBranding = BRANDING) {
  const saved: ReportBrandingBody[] = [];
  let current = initial;
  mockServer.use(
    http.get('*/api/customer-reports/branding', () => HttpResponse.json(current)),
    http.put('*/api/customer-reports/branding', async ({ request }) => {
      const body = (await request.json()) as ReportBrandingBody;
      if (!/^#[0-9a-f]{6}$/i.test(body.primaryColour)) {
        return HttpResponse.json(
          {
            error: 'Bad Request',
            statusCode: 400,
            message: 'body.primaryColour: must be a colour as #RRGGBB',
            field: 'body.primaryColour',
          },
          { status: 400 },
        );
      }
      saved.push(body);
      const { logo, ...rest } = body;
      current = { ...rest, logo: logo === undefined ? current.logo : logo };
      return HttpResponse.json(current);
    }),
  );
  return { saved };
}

describe('Customer Report Branding page', () => {
  it('previews the cover as the fields change and saves them, keeping the stored logo', async () => {
    const { saved } = serve({ ...BRANDING, logo: STORED_LOGO });
    renderApp('/customer-reports/branding');
    const cover = await screen.findByRole('figure', { name: 'Cover preview' });
    expect(
      within(cover).getByRole('img', { name: 'Northwind Managed Services logo' }),
    ).toBeVisible();
    expect(cover).toHaveTextContent('Prepared by Northwind Managed Services');
    expect(cover).toHaveTextContent(
      'service@northwind.example · +44 20 7946 0000 · northwind.example',
    );

    const support = screen.getByRole('textbox', { name: /Support message/ });
    await userEvent.type(support, 'Our service desk answers 8:00-18:00.');
    expect(cover).toHaveTextContent('Our service desk answers 8:00-18:00.');
    await userEvent.click(screen.getByRole('button', { name: 'Save branding' }));
    expect(await screen.findByText('The branding was saved.')).toBeVisible();
    // the stored logo is kept by leaving it out of the body
    expect(saved).toEqual([
      {
        mspName: 'Northwind Managed Services',
        primaryColour: '#0F4C81',
        contactEmail: 'service@northwind.example',
        contactPhone: '+44 20 7946 0000',
        website: 'northwind.example',
        supportMessage: 'Our service desk answers 8:00-18:00.',
      },
    ]);
  });

  it('shows the field the server refused under it', async () => {
    const { saved } = serve();
    renderApp('/customer-reports/branding');
    const colour = await screen.findByRole('textbox', { name: 'Colour' });
    await userEvent.clear(colour);
    await userEvent.type(colour, 'purple');
    await userEvent.click(screen.getByRole('button', { name: 'Save branding' }));
    expect(
      await screen.findByText('body.primaryColour: must be a colour as #RRGGBB'),
    ).toBeVisible();
    expect(saved).toEqual([]);
  });

  it('refuses a logo over 1 MB or not an image, and sends a chosen one or its removal', async () => {
    const { saved } = serve({ ...BRANDING, logo: STORED_LOGO });
    renderApp('/customer-reports/branding');
    const input = await screen.findByLabelText('Logo');
    const big = new File([new Uint8Array(1_200_000)], 'huge.png', { type: 'image/png' });
    await userEvent.upload(input, big);
    expect(
      await screen.findByText('huge.png is 1.2 MB: the logo must be under 1 MB.'),
    ).toBeVisible();
    await userEvent.upload(input, new File(['plain text'], 'logo.png', { type: 'image/png' }));
    expect(
      await screen.findByText(
        'logo.png is not a PNG, JPEG or SVG image: its content is not one, whatever its name says.',
      ),
    ).toBeVisible();

    await userEvent.upload(
      input,
      new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'new.svg', { type: 'image/svg+xml' }),
    );
    expect(await screen.findByText('new.svg')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Save branding' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.logo).toMatch(/^data:image\/svg\+xml;base64,/);

    await userEvent.click(await screen.findByRole('button', { name: 'Remove image' }));
    const cover = screen.getByRole('figure', { name: 'Cover preview' });
    expect(within(cover).queryByRole('img')).toBeNull();
    expect(cover).toHaveTextContent('Northwind Managed Services');
    await userEvent.click(screen.getByRole('button', { name: 'Save branding' }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(saved[1]?.logo).toBeNull();
  });

  it('says what failed when the branding cannot be loaded', async () => {
    mockServer.use(
      http.get('*/api/customer-reports/branding', () =>
        HttpResponse.json(
          {
            error: 'Service Unavailable',
            statusCode: 503,
            message: 'Blob storage is not configured.',
          },
          { status: 503 },
        ),
      ),
    );
    renderApp('/customer-reports/branding');
    expect(await screen.findByText('The branding could not be loaded')).toBeVisible();
    expect(screen.getByText('Blob storage is not configured.')).toBeVisible();
  });
});
