// Generated from openapi.json by scripts/export-openapi.ts (openapi-typescript): do not edit by hand.
export interface paths {
    "/v1/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The venue of the calling key (a chain key: its chain), with the register rules in effect for that key */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the venue's endpoints, newest first */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /** Register an endpoint; the response carries its signing secret, shown only this once */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an endpoint */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /** Remove an endpoint; deliveries in progress stop */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /** Change an endpoint; enabled: true re-enables one that was disabled */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/v1/webhook_endpoints/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a signed test.ping to the endpoint now and report how it went
         * @description Not idempotent: each call sends a new ping. A receiver that is down gives delivered: false, not an error.
         */
        post: operations["testWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Delivery attempts to the endpoint, newest first */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The venue's events, and its chain's that happen at no venue, newest first */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One event, as delivered */
        get: operations["getEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List or search the chain's members
         * @description Errors: 400 parameter_invalid (limit, starting_after, q, sort, level, last_visit_after, last_visit_before, phone); 403 venue_not_allowed (venue_id). See /api/errors.
         */
        get: operations["listMembers"];
        put?: never;
        /**
         * Enrol a guest with the venue's card number; consent must be true
         * @description Errors: 400 parameter_invalid (consent, card_number, phone, email, program_id); 409 card_number_taken; 409 member_email_taken (email). See /api/errors.
         */
        post: operations["enrolMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members/lookup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Find a member by card number, barcode content, phone or e-mail (exactly one)
         * @description Errors: 400 parameter_invalid (none or several of card_number, barcode, phone, email; phone; email); 404 member_not_found; 409 member_ambiguous (two or more members have this phone). See /api/errors.
         */
        get: operations["lookupMember"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a member
         * @description Errors: 404 member_not_found. See /api/errors.
         */
        get: operations["getMember"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change name, phone, e-mail, birthday or (VIP) level
         * @description Errors: 400 parameter_invalid (phone, email, birthday, vip_level); 404 member_not_found; 409 member_email_taken (email). See /api/errors.
         */
        patch: operations["updateMember"];
        trace?: never;
    };
    "/v1/members/{id}/cards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Attach another card number
         * @description Errors: 400 parameter_invalid (card_number); 404 member_not_found; 409 card_number_taken. See /api/errors.
         */
        post: operations["attachCard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Everything that changed the balance, spend, visits or stamps, newest first
         * @description Errors: 400 parameter_invalid (limit, starting_after); 404 member_not_found. See /api/errors.
         */
        get: operations["listMemberHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members/{id}/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One row per check (its void and refunds in it) and one per other change, by when each happened, newest first
         * @description Errors: 400 parameter_invalid (limit, starting_after); 404 member_not_found. See /api/errors.
         */
        get: operations["listMemberActivity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members/{id}/barcode.svg": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The member's barcode as an SVG image, in the program's format
         * @description Errors: 404 member_not_found. See /api/errors.
         */
        get: operations["getMemberBarcode"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members/{id}/adjustments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add or take cashback by hand, with a reason (only when the venue allows it)
         * @description Errors: 400 parameter_invalid (amount, reason); 400 redeem_not_supported; 402 insufficient_balance (with available); 403 adjustments_disabled; 404 member_not_found. See /api/errors.
         */
        post: operations["adjustCashback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members/{id}/rewards/redeem": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Redeem one earned stamp reward
         * @description Errors: 400 redeem_not_supported; 402 no_reward_available; 404 member_not_found. See /api/errors.
         */
        post: operations["redeemReward"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members/{id}/pass.pkpass": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The member's card as an Apple Wallet pass
         * @description A store card signed with the server's Pass Type ID certificate, in the chain's brand, with the member's barcode and balance or stamps; it updates itself through the pass web service. 409 wallet_not_configured names the settings the server still needs.
         */
        get: operations["getMemberApplePass"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members/{id}/pass/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke the member's Apple Wallet pass
         * @description Every pass installed so far stops updating (its token no longer works) and no device stays registered; a pass downloaded from now on works. For a pass that went where it should not, for example through a card link sent to the wrong guest (renew that link too).
         */
        post: operations["revokeMemberApplePass"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members/{id}/wallet/google": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A link that saves the member's card to Google Wallet
         * @description The save link's JWT carries the program's loyalty class and the member's loyalty object, signed by the configured service account. From then on the object is updated when the balance, stamps, level or card change. 409 wallet_not_configured names the settings the server still needs.
         */
        get: operations["getMemberGoogleWalletLink"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members/{id}/card_link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The link of the guest's card page
         * @description A page for the guest: their barcode and balance, with Add to Apple Wallet and Save to Google Wallet buttons. The same link each time, until renewed.
         */
        get: operations["getMemberCardLink"];
        put?: never;
        /**
         * A new link of the guest's card page; the old ones stop working
         * @description For a link that went where it should not: every link given before opens nothing from now on. Passes already in a wallet keep working.
         */
        post: operations["renewMemberCardLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members/{id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Everything held about the member, as one JSON document
         * @description Profile, cards, ledger, transactions with their lines, refunds, holds, visits, scans and the events that name the member, at every venue of the chain. An erased member's export shows what the chain keeps, anonymised. Errors: 404 member_not_found. See /api/errors.
         */
        get: operations["exportMember"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members/{id}/erase": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Erase the member's personal data; the ledger and transactions stay, anonymised
         * @description Releases active holds first. Afterwards no look-up, scan or check finds the member (404 member_not_found, as for an unknown card). Erasing again answers 200 with already_erased true. Errors: 404 member_not_found. See /api/errors.
         */
        post: operations["eraseMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import members from a CSV (text/csv) or JSON Lines (application/x-ndjson) file of up to 50 MB; a worker processes it
         * @description The body is the file itself (see docs/members.md, "Importing members"). Answers 202 with the import; follow it with GET /v1/members/imports/{id}. Idempotent by card number: sending the same file again skips the members already imported. Idempotency-Key as on every POST (its fingerprint takes the file's bytes). Errors: 400 parameter_invalid (program_id; file empty); 413 request_body_too_large; 415 unsupported_content_type. See /api/errors.
         */
        post: operations["createMemberImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members/imports/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A member import's progress and its bad lines (each with its line and reason)
         * @description Errors: 400 parameter_invalid (errors_after); 404 member_import_not_found. See /api/errors.
         */
        get: operations["getMemberImport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/menu/items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List dishes, newest first; available=false lists the stop list */
        get: operations["listDishes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/menu/items/{external_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a dish by its SKU */
        get: operations["getDish"];
        /** Create the dish (201) or replace it whole (200) */
        put: operations["putDish"];
        post?: never;
        /** Remove a dish */
        delete: operations["deleteDish"];
        options?: never;
        head?: never;
        /** Change some fields: price, or available (false puts the dish on the stop list) */
        patch: operations["updateDish"];
        trace?: never;
    };
    "/v1/menu/items/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sync up to 500 dishes at once: all or nothing; replace: true removes dishes not sent
         * @description Any invalid item refuses the whole call with 400 parameter_invalid, param "items", and error.errors listing every bad item by index.
         */
        post: operations["syncDishes"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Table orders, newest first; poll every 10-15 s or use the order.created webhook */
        get: operations["listOrders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/orders/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an order */
        get: operations["getOrder"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/orders/{id}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move an order: new → accepted | rejected; accepted → preparing → ready → served → closed; new…ready → cancelled
         * @description Any other move is 409 invalid_status_transition, naming both states.
         */
        post: operations["moveOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/public/v1/menus/{venue_slug}/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Place a table order from the QR menu (no key)
         * @description Limited per client address. Unknown dishes: 400; stop-listed dishes: 409 dish_unavailable; unknown table: 404 table_not_found. Send an Idempotency-Key to retry safely: a retry with the same key and body gets the first answer.
         */
        post: operations["placeOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/catalog/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List products, newest first */
        get: operations["listProducts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/catalog/products/{sku}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a product by SKU */
        get: operations["getProduct"];
        /** Create (201) or replace (200) a product; a new category it names is created */
        put: operations["putProduct"];
        post?: never;
        /** Remove a product */
        delete: operations["deleteProduct"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/catalog/products/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload up to 1000 products at once, all or nothing
         * @description Any invalid item refuses the whole call with 400 parameter_invalid, param "items", and error.errors listing every bad item.
         */
        post: operations["uploadProducts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/catalog/categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Categories with their money rules, newest first */
        get: operations["listCategories"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/catalog/categories/{external_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Create (201) or rename (200) a category
         * @description Money rules (earns_cashback, payable_with_cashback, cashback_percent) are the owner's: sending one is 403 owner_only.
         */
        put: operations["putCategory"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/campaigns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The chain's campaigns, newest first */
        get: operations["listCampaigns"];
        put?: never;
        /**
         * Set up a campaign of the chain (bonus, welcome, birthday or referral)
         * @description Each type takes its own fields (docs/campaigns.md); a field of another type is 400 parameter_invalid naming it. Bonus and referral campaigns credit with checks (their shares in the check’s campaigns[]), welcome campaigns at enrolment, birthday campaigns on the day.
         */
        post: operations["createCampaign"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/campaigns/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a campaign */
        get: operations["getCampaign"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change a campaign; status paused stops it, active resumes it, ended ends it for good */
        patch: operations["updateCampaign"];
        trace?: never;
    };
    "/v1/campaigns/{id}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What a campaign gave, to how many members, and their checks and spend while it ran
         * @description credits and credited (equal to spent) come from its ledger entries; checks and spend are the completed checks of the members it credited, closed from its start to its end (to null: it still runs) at its venues, less refunds (docs/campaigns.md, Results).
         */
        get: operations["getCampaignResults"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/checks/calculate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * What a check would earn and redeem, with display text; writes nothing
         * @description external_id is optional here.
         */
        post: operations["calculateCheck"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/checks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Apply a check: 201 the transaction; the same external_id and body again: 200, Idempotent-Replayed: true
         * @description 409 external_id_reused: the same external_id with another body; 409 balance_conflict: retry with the same external_id.
         */
        post: operations["applyCheck"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/holds/{id}/capture": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pay an applied check (external_id) with the hold: the check's numbers are worked out again with the redemption
         * @description For tills that apply the check first. The check must be the same member's, completed, without redemption or refunds. Goes through the same calculation and write as a check: the per-check cap of the calling key and the per-day cap of the check's own day apply, and the check never earns more than it did. Emits transaction.updated. 402 insufficient_balance when the redemption plus the earning it takes back would leave available below zero.
         */
        post: operations["captureHold"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Transactions, newest first */
        get: operations["listTransactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions/{external_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A transaction by its external_id */
        get: operations["getTransaction"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions/{external_id}/void": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Void a check: redeemed cashback comes back, earned goes (the balance may go negative)
         * @description Send no body; register_id (when checks are numbered per register) goes in the query string.
         */
        post: operations["voidTransaction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions/{external_id}/refunds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Refund part of a check; earned and redeemed cashback are reversed in proportion */
        post: operations["refundTransaction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/holds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reserve cashback for a coming check; capture it with POST /v1/checks and hold_id */
        post: operations["createHold"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/holds/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A hold; status is expired from expires_at on */
        get: operations["getHold"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/holds/{id}/release": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Give the reserved cashback back now */
        post: operations["releaseHold"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/visits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record a visit (stamps, visit count); with external_id, sending it again replays it
         * @description A cashback program answers 400 visit_not_supported: send a check instead.
         */
        post: operations["recordVisit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/scans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resolve a scanned code (card number or serial) to the member; remembered for card_scan_required */
        post: operations["resolveScan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reports/venue_liability": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Per venue of the chain, the cashback earned, redeemed, expired, adjusted and imported in a period, and the net
         * @description The whole chain for any key of it (a venue key too): one row per venue, oldest first, then the row of no venue (`venue_id: null`: imports and a chain key's adjustments made without venue_id). `from` is included and `to` is not; `from` must come before `to` (else 400 parameter_invalid). Minor units, redeemed and expired positive; net = earned + campaign + adjusted + imported − redeemed − expired, and the nets add up to the change in the chain's outstanding cashback over the period, held cashback included.
         */
        get: operations["getVenueLiability"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit_events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The chain's audit log, newest first: who changed what, from where */
        get: operations["listAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The chain's connections, newest first */
        get: operations["listIntegrations"];
        put?: never;
        /**
         * Connect a point-of-sale provider: its settings (secrets are write-only) and the locations mapped to the chain's venues
         * @description The answer's endpoint_url is what to paste into the provider (Square's webhook subscription, Toast's loyalty integration).
         */
        post: operations["createIntegration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a connection */
        get: operations["getIntegration"];
        put?: never;
        post?: never;
        /** Remove a connection and its log; what it applied stays */
        delete: operations["deleteIntegration"];
        options?: never;
        head?: never;
        /** Change a connection: its name, status (pause or resume), locations, rules, or a setting given again */
        patch: operations["updateIntegration"];
        trace?: never;
    };
    "/v1/integrations/{id}/log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The connection's log, newest first: what was applied, refunded or reversed, and what was not and why */
        get: operations["listIntegrationLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/integrations/{id}/log/{entry_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Try a failed or waiting entry again: it is queued, due now */
        post: operations["retryIntegrationLogEntry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "transaction.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** transaction.completed: sent to every endpoint subscribed to it (Standard Webhooks signature headers) */
        post: operations["receiveTransactionCompletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "transaction.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** transaction.updated: sent to every endpoint subscribed to it (Standard Webhooks signature headers) */
        post: operations["receiveTransactionUpdatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "transaction.refunded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** transaction.refunded: sent to every endpoint subscribed to it (Standard Webhooks signature headers) */
        post: operations["receiveTransactionRefundedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "balance.adjusted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** balance.adjusted: sent to every endpoint subscribed to it (Standard Webhooks signature headers) */
        post: operations["receiveBalanceAdjustedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "cashback.expiring": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** cashback.expiring: sent to every endpoint subscribed to it (Standard Webhooks signature headers) */
        post: operations["receiveCashbackExpiringEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "cashback.expired": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** cashback.expired: sent to every endpoint subscribed to it (Standard Webhooks signature headers) */
        post: operations["receiveCashbackExpiredEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "member.erased": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** member.erased: sent to every endpoint subscribed to it (Standard Webhooks signature headers) */
        post: operations["receiveMemberErasedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "member.level_changed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** member.level_changed: sent to every endpoint subscribed to it (Standard Webhooks signature headers) */
        post: operations["receiveMemberLevelChangedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "campaign.budget_exhausted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** campaign.budget_exhausted: sent to every endpoint subscribed to it (Standard Webhooks signature headers) */
        post: operations["receiveCampaignBudgetExhaustedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "order.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** order.created: sent to every endpoint subscribed to it (Standard Webhooks signature headers) */
        post: operations["receiveOrderCreatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "integration.failing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** integration.failing: sent to every endpoint subscribed to it (Standard Webhooks signature headers) */
        post: operations["receiveIntegrationFailingEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "test.ping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** test.ping: sent to every endpoint subscribed to it (Standard Webhooks signature headers) */
        post: operations["receiveTestPingEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** CashbackSettings */
        CashbackSettings: {
            /** @description By paid spend (see level_period_days); the first starts at 0. */
            levels: {
                name: string;
                /** @description Minor units of the venue currency. */
                min_spend: number;
                /** @description Percent, up to two decimals (7.5). */
                percent: number;
            }[];
            /** @description Levels judged on the paid spend of checks in this many days, a rolling window: a member falls a level as old spend leaves it (absent: on all spend). */
            level_period_days?: number;
            /** @default 100 */
            max_redeem_percent: number;
            /** @description Cashback earned on a venue day expires this many days later (off when absent); see docs/members.md. */
            cashback_expires_after_days?: number;
            /** @description How many days before a lot expires cashback.expiring is sent (default 7; 0: not sent). */
            cashback_expiry_warning_days?: number;
        };
        /** StampsSettings */
        StampsSettings: {
            stamps_required: number;
            reward_name: string;
            /** @default 1 */
            stamps_per_visit: number;
            /**
             * @description A check of at least this much counts as a visit.
             * @default 0
             */
            min_check_amount: number;
        };
        /** VisitDiscountSettings */
        VisitDiscountSettings: {
            tiers: {
                min_visits: number;
                /** @description Percent, up to two decimals (7.5). */
                percent: number;
            }[];
        };
        /** VipSettings */
        VipSettings: {
            /** @description By paid spend (see level_period_days), or set by hand on the member. */
            levels: {
                name: string;
                /** @description Minor units of the venue currency. */
                min_spend: number;
                /** @description Percent, up to two decimals (7.5). */
                percent: number;
            }[];
            /** @description Levels judged on the paid spend of checks in this many days, a rolling window: a member falls a level as old spend leaves it (absent: on all spend). */
            level_period_days?: number;
        };
        /** Program */
        Program: {
            /** @enum {string} */
            object: "program";
            /** Format: uuid */
            id: string;
            name: string;
            type: "cashback" | "stamps" | "visit_discount" | "vip";
            barcode_format: "qr_card_number" | "code128_card_number" | "qr_serial";
            is_default: boolean;
            /** @description The settings of the program type (see docs/programs.md). */
            settings: components["schemas"]["CashbackSettings"] | components["schemas"]["StampsSettings"] | components["schemas"]["VisitDiscountSettings"] | components["schemas"]["VipSettings"];
            /** Format: date-time */
            created_at: string;
        };
        /** Account */
        Account: {
            /** @enum {string} */
            object: "account";
            /** Format: uuid */
            id: string;
            name: string;
            slug: string;
            /** @description ISO 4217; all amounts are in its minor units. */
            currency: string;
            locale: string;
            timezone: string;
            country: string;
            /** @description The calling key's venue; null for a chain key, whose account is the chain (D21). */
            venue: {
                /** Format: uuid */
                id: string;
                name: string;
                slug: string;
                timezone: string;
            } | null;
            /** @description The calling key's mode. */
            livemode: boolean;
            api_key: {
                /** Format: uuid */
                id: string;
                name: string;
                /** @description First characters of the key, for recognising it. */
                prefix: string;
                /** @description Empty: full access. */
                scopes: string[];
            };
            settings: {
                /** @description Cashback is redeemed only by capturing a hold. */
                redeem_only_via_holds: boolean;
                /** @description external_id is unique per register_id, which is then required. */
                checks_numbered_per_register: boolean;
                /** @description Checks whose closed_at is older are refused (check_too_old); null for no limit. */
                max_check_age_seconds: number | null;
                /** @description Most cashback one check earns, in minor units; null for no cap. */
                max_cashback_per_check: number | null;
                /** @description Most cashback a member earns per day (venue's time zone), in minor units; null for no cap. */
                max_cashback_per_day: number | null;
                /** @description A check needs a card this key scanned shortly before. */
                card_scan_required: boolean;
                /** @description Balance adjustments through the API are allowed. */
                manual_adjustments_allowed: boolean;
                /** @description Lifetime of a hold before it expires. */
                hold_ttl_seconds: number;
            };
            /** @description The chain's programs; members join the default one unless told otherwise. */
            programs: components["schemas"]["Program"][];
            /** Format: date-time */
            created_at: string;
            /** @description The chain the venue belongs to (D21): its members, balances and programs are shared by all of its venues. */
            chain: {
                /** Format: uuid */
                id: string;
                name: string;
                /** @description ISO 4217: every venue of the chain counts in it. */
                currency: string;
                /** @description The chain's venues, oldest first. */
                venues: {
                    /** Format: uuid */
                    id: string;
                    name: string;
                    slug: string;
                    timezone: string;
                }[];
            };
        };
        /** BulkItemError */
        BulkItemError: {
            /** @description The position of the item in items. */
            index: number;
            /** @description The field at fault, in dotted form, for example items[3].price. */
            param: string;
            message: string;
        };
        /** ParameterInvalidError */
        ParameterInvalidError: {
            type: string;
            /** @enum {string} */
            code: "parameter_invalid";
            message: string;
            param?: string;
            doc_url: string;
            /** @description A refused bulk upload (nothing was applied): every bad item. */
            errors?: components["schemas"]["BulkItemError"][];
        };
        /** InsufficientBalanceError */
        InsufficientBalanceError: {
            type: string;
            /** @enum {string} */
            code: "insufficient_balance";
            message: string;
            param?: string;
            doc_url: string;
            /** @description The cashback the member can spend, in minor units. */
            available: number;
        };
        /** RefundExceedsCheckError */
        RefundExceedsCheckError: {
            type: string;
            /** @enum {string} */
            code: "refund_exceeds_check";
            message: string;
            param?: string;
            doc_url: string;
            /** @description What can still be refunded of the check, in minor units. */
            refundable: number;
        };
        /** RedeemLimitExceededError */
        RedeemLimitExceededError: {
            type: string;
            /** @enum {string} */
            code: "redeem_limit_exceeded";
            message: string;
            param?: string;
            doc_url: string;
            /** @description The most cashback this check can be paid with, in minor units. */
            max_redeem: number;
        };
        /** DishUnavailableError */
        DishUnavailableError: {
            type: string;
            /** @enum {string} */
            code: "dish_unavailable";
            message: string;
            param?: string;
            doc_url: string;
            /** @description The dishes of the order on the stop list. */
            external_ids: string[];
        };
        /** InvalidStatusTransitionError */
        InvalidStatusTransitionError: {
            type: string;
            /** @enum {string} */
            code: "invalid_status_transition";
            message: string;
            param?: string;
            doc_url: string;
            /** @description The order's status (see the order's `status`). */
            status: string;
            /** @description The status sent. */
            requested_status: string;
        };
        /** PlainError */
        PlainError: {
            type: string;
            /** @enum {string} */
            code: "redeem_not_supported" | "visit_not_supported" | "hold_required" | "register_id_required" | "check_too_old" | "api_key_missing" | "api_key_invalid" | "api_key_revoked" | "session_required" | "pass_unauthorized" | "sign_in_failed" | "signature_invalid" | "no_reward_available" | "missing_scope" | "scan_required" | "adjustments_disabled" | "owner_only" | "role_forbidden" | "csrf_token_invalid" | "api_key_not_accepted" | "signup_closed" | "route_not_found" | "venue_not_allowed" | "chain_key_not_accepted" | "member_not_found" | "venue_not_found" | "transaction_not_found" | "hold_not_found" | "dish_not_found" | "order_not_found" | "product_not_found" | "category_not_found" | "webhook_endpoint_not_found" | "integration_not_found" | "integration_log_entry_not_found" | "integration_entry_not_retryable" | "event_not_found" | "menu_not_found" | "table_not_found" | "program_not_found" | "campaign_not_found" | "api_key_not_found" | "user_not_found" | "member_import_not_found" | "session_not_found" | "logo_not_found" | "link_not_found" | "method_not_allowed" | "email_taken" | "card_number_taken" | "member_email_taken" | "member_ambiguous" | "hold_expired" | "hold_captured" | "hold_released" | "external_id_reused" | "wallet_not_configured" | "last_owner" | "balance_conflict" | "idempotency_key_in_use" | "idempotency_key_reused" | "link_expired" | "link_used" | "request_body_too_large" | "unsupported_content_type" | "rate_limited" | "internal_error" | "service_unavailable";
            message: string;
            param?: string;
            doc_url: string;
        };
        /** Error */
        Error: {
            error: components["schemas"]["ParameterInvalidError"] | components["schemas"]["InsufficientBalanceError"] | components["schemas"]["RefundExceedsCheckError"] | components["schemas"]["RedeemLimitExceededError"] | components["schemas"]["DishUnavailableError"] | components["schemas"]["InvalidStatusTransitionError"] | components["schemas"]["PlainError"];
            request_id: string;
        };
        /** WebhookEndpoint */
        WebhookEndpoint: {
            /** @enum {string} */
            object: "webhook_endpoint";
            /** Format: uuid */
            id: string;
            /** @description The venue whose events it receives, with the events of no venue (an expiry, a chain key's adjustment) about members whose home venue it is; null: a chain endpoint, which receives every event of the chain (D21). */
            venue_id: string | null;
            url: string;
            description: string | null;
            events: string[];
            status: "enabled" | "disabled";
            disabled_reason: string | null;
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
            /** @description Signing secret (whsec_…); present only in the response to creation. */
            secret?: string;
        };
        /** WebhookEndpointList */
        WebhookEndpointList: {
            /** @enum {string} */
            object: "list";
            url: string;
            has_more: boolean;
            data: components["schemas"]["WebhookEndpoint"][];
        };
        /** DeletedWebhookEndpoint */
        DeletedWebhookEndpoint: {
            /** @enum {string} */
            object: "webhook_endpoint";
            /** Format: uuid */
            id: string;
            /** @enum {boolean} */
            deleted: true;
        };
        /** WebhookTest */
        WebhookTest: {
            /** @enum {string} */
            object: "webhook_test";
            delivered: boolean;
            /** @description What the endpoint answered; 0 when no answer came. */
            status_code: number;
            error: string | null;
        };
        /** DeliveryAttempt */
        DeliveryAttempt: {
            /** @enum {string} */
            object: "webhook_delivery_attempt";
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            event_id: string;
            event_type: string;
            attempt: number;
            /** @description 0 when the endpoint gave no HTTP answer. */
            status_code: number;
            duration_ms: number;
            error: string | null;
            /** @description When the next try is due; null when delivered or given up. */
            next_attempt_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
        /** DeliveryAttemptList */
        DeliveryAttemptList: {
            /** @enum {string} */
            object: "list";
            url: string;
            has_more: boolean;
            data: components["schemas"]["DeliveryAttempt"][];
        };
        /** Event */
        Event: {
            /** @enum {string} */
            object: "event";
            /**
             * Format: uuid
             * @description Also sent as the webhook-id header; the same on every retry.
             */
            id: string;
            type: string;
            /** @description The venue where it happened; null for what happens at no venue (expiry, imports). */
            venue_id: string | null;
            /** @enum {string} */
            api_version: "v1";
            /** Format: date-time */
            created_at: string;
            livemode: boolean;
            data: {
                /** @description The API object the event is about, as the API shows it; each type's in the webhooks section. */
                object: {
                    [key: string]: unknown;
                };
            };
            /** @description The API request that caused the event; null for automatic ones. */
            request: {
                id: string;
                idempotency_key: string | null;
            } | null;
        };
        /** EventList */
        EventList: {
            /** @enum {string} */
            object: "list";
            url: string;
            has_more: boolean;
            data: components["schemas"]["Event"][];
        };
        /** Member */
        Member: {
            /** @enum {string} */
            object: "member";
            /** Format: uuid */
            id: string;
            /** @description The venue where the member enrolled; null when they came in without one (an import). The member belongs to the whole chain (D21). */
            home_venue_id: string | null;
            /** Format: uuid */
            program_id: string;
            /** @description cashback, stamps, visit_discount or vip. */
            program_type: string;
            card_numbers: string[];
            /** @description Generated, unique in the chain; what a qr_serial barcode carries. */
            serial: string;
            /** @description What the member card shows; render it at barcode.svg. */
            barcode: {
                format: string;
                value: string;
            };
            /** @description E.164, for example +353871234567. */
            phone: string | null;
            /** @description Trimmed and lower-cased; unique in the chain. Null when none. */
            email: string | null;
            name: string | null;
            /** @enum {boolean} */
            consent: true;
            /** Format: date-time */
            consented_at: string;
            /** @description All paid spend, minor units. */
            total_spend: number;
            visits: number;
            /** @description Cashback: the sum of the ledger, minor units. */
            balance: number | null;
            /** @description Cashback reserved by active holds. */
            held: number | null;
            /** @description Cashback that can be spent now: balance − held. */
            available: number | null;
            /** @description Programs that expire cashback: what expires on each of the next (up to three) dates, soonest first; null otherwise. */
            expiring: {
                amount: number;
                /**
                 * Format: date
                 * @description The venue-local date it expires on (at the start of that day).
                 */
                on: string;
            }[] | null;
            /** @description Cashback or VIP: the level the member is at. */
            level: {
                name: string;
                percent: number;
                min_spend: number;
            } | null;
            /** @description Cashback or VIP: the paid spend the level is judged on — total_spend, or with the program's level_period_days the spend of checks in that many days. */
            level_spend: number | null;
            levels: {
                name: string;
                percent: number;
                min_spend: number;
                reached: boolean;
            }[] | null;
            /** @description Null at the top level. */
            next_level: {
                name: string;
                percent: number;
                spend_needed: number;
            } | null;
            stamps: {
                /** @description Toward the next reward. */
                count: number;
                required: number;
                rewards_available: number;
            } | null;
            /** @description Visit-discount and VIP programs: the discount the member gets. */
            discount_percent: number | null;
            /** @description VIP: a level set by hand, overriding the one by spend. */
            vip_level: string | null;
            /** @description When the member's latest check closed (else was received); null before the first. */
            last_visit_at: string | null;
            /** @description MM-DD, or YYYY-MM-DD when the year was given: birthday campaigns credit on it. */
            birthday: string | null;
            /** @description The code this member gives friends to enrol with (referred_by); null once erased. */
            referral_code: string | null;
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
            /** @description Ready text in the venue's locale and currency. */
            display: {
                /** @description One line for the cashier screen. */
                cashier: string;
                /** @description Lines to print on the receipt. */
                receipt: string[];
            };
        };
        /** MemberList */
        MemberList: {
            /** @enum {string} */
            object: "list";
            url: string;
            has_more: boolean;
            data: components["schemas"]["Member"][];
        };
        /** HistoryEntry */
        HistoryEntry: {
            /** @enum {string} */
            object: "history_entry";
            /** Format: uuid */
            id: string;
            /** @description The venue of the chain where it happened; null when at none (D21). */
            venue_id: string | null;
            /** @description adjustment, reward_redemption, check, void, refund, visit, import, expiry, campaign… */
            type: string;
            /** @description Effect on the cashback balance, minor units. */
            cashback: number;
            /** @description Effect on total_spend. */
            spend: number;
            visits: number;
            stamps: number;
            reason: string | null;
            /** @description What caused it, such as the external_id of a check. */
            reference: string | null;
            /** @description The campaign that credited a `campaign` entry; null on every other type. */
            campaign_id: string | null;
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
        };
        /** HistoryEntryList */
        HistoryEntryList: {
            /** @enum {string} */
            object: "list";
            url: string;
            has_more: boolean;
            data: components["schemas"]["HistoryEntry"][];
        };
        /** ActivityRefund */
        ActivityRefund: {
            /** Format: uuid */
            id: string;
            external_id: string;
            /** @description What was refunded, minor units. */
            amount: number;
            /** @description Cashback of the check this refund took back. */
            earned_reversed: number;
            /** @description Cashback the check redeemed that this refund gave back. */
            redeemed_returned: number;
            /** Format: date-time */
            created_at: string;
        };
        /** MemberActivity */
        MemberActivity: {
            /** @enum {string} */
            object: "member_activity";
            /**
             * Format: uuid
             * @description A check's id for a check; else the ledger entry's id.
             */
            id: string;
            /** @description `check` for a check with its void and refunds; else the ledger entry's type (adjustment, visit, import, expiry, campaign, reward_redemption…; `check_entry`, `earn`, `redemption`… for an entry of a check written before migration 0040 that could not be told apart). */
            type: string;
            /** @description Where it happened; null when at no venue (D21). */
            venue_id: string | null;
            /**
             * Format: date-time
             * @description A check: when it closed (else when it was received). Anything else: when it was written.
             */
            at: string;
            /** @description A check's external_id; else the entry's reference. */
            reference: string | null;
            /** @description A check's status; null on other rows. */
            status: ("completed" | "voided") | null;
            /** @description Net effect on the cashback balance, minor units: for a check, what it, its void and its refunds did together. The rows of a member sum to their balance. */
            cashback: number;
            /** @description Net effect on total_spend. */
            spend: number;
            visits: number;
            stamps: number;
            /** @description Cashback the check earned, net of what its void and refunds took back; 0 on other rows. */
            earned: number;
            /** @description Cashback the check redeemed, net of what its void and refunds gave back; 0 on other rows. */
            redeemed: number;
            /** @description Campaign credits of cashback: those of a check, net of take-backs, or the credit a `campaign` row is. */
            campaign_cashback: number;
            /** @description Campaign credits of stamps, likewise. */
            campaign_stamps: number;
            /** @description A check's refunds, oldest first; empty on other rows. */
            refunds: components["schemas"]["ActivityRefund"][];
            /** @description The reason of an adjustment, the campaign of a credit…; null on a check. */
            reason: string | null;
            /** @description The campaign that credited a `campaign` row. */
            campaign_id: string | null;
            livemode: boolean;
        };
        /** MemberActivityList */
        MemberActivityList: {
            /** @enum {string} */
            object: "list";
            url: string;
            has_more: boolean;
            data: components["schemas"]["MemberActivity"][];
        };
        /** Adjustment */
        Adjustment: {
            /** @enum {string} */
            object: "adjustment";
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            member_id: string;
            amount: number;
            reason: string;
            /** @description The balance after the adjustment. */
            balance: number;
            available: number;
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
            /** @description Ready text in the venue's locale and currency. */
            display: {
                /** @description One line for the cashier screen. */
                cashier: string;
                /** @description Lines to print on the receipt. */
                receipt: string[];
            };
        };
        /** RewardRedemption */
        RewardRedemption: {
            /** @enum {string} */
            object: "reward_redemption";
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            member_id: string;
            reward_name: string;
            stamps_used: number;
            member: components["schemas"]["Member"];
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
            /** @description Ready text in the venue's locale and currency. */
            display: {
                /** @description One line for the cashier screen. */
                cashier: string;
                /** @description Lines to print on the receipt. */
                receipt: string[];
            };
        };
        /** PassRevocation */
        PassRevocation: {
            /** @enum {string} */
            object: "pass_revocation";
            /** Format: uuid */
            member_id: string;
        };
        /** GoogleWalletLink */
        GoogleWalletLink: {
            /** @enum {string} */
            object: "google_wallet_link";
            /** @description https://pay.google.com/gp/v/save/<JWT>: opens Google Wallet to save the card. */
            save_url: string;
        };
        /** CardLink */
        CardLink: {
            /** @enum {string} */
            object: "card_link";
            /** @description The guest's card page: barcode, balance, and buttons to add the card to a wallet. */
            url: string;
        };
        /** CalculatedLine */
        CalculatedLine: {
            sku: string | null;
            name: string;
            /** @description The category the line resolved to. */
            category: string | null;
            quantity: number;
            unit_price: number;
            /** @description quantity × unit_price, rounded half up. */
            amount: number;
            earns_cashback: boolean;
            payable_with_cashback: boolean;
            /** @description The percent this line earns at (0 when it does not earn). */
            cashback_percent: number;
            /** @description The share of redeem_amount paid on this line. */
            redeemed: number;
            /** @description Before per-check and per-day caps. */
            earned: number;
            /** @description Where the line's rule came from: product (the SKU's product's category), category (the category the line named) or default (neither is known: the program's defaults). */
            rule_source: "product" | "category" | "default";
        };
        /** CheckCampaignCredit */
        CheckCampaignCredit: {
            /** Format: uuid */
            campaign_id: string;
            name: string;
            /** @description The campaign's share alone, in the member's unit: cashback (minor units) or stamps. */
            amount: number;
        };
        /**
         * Transaction
         * @example {
         *       "object": "transaction",
         *       "id": "01a2046b-2f1e-7c3a-9d0e-1b2c3d4e5f60",
         *       "venue_id": "01a20400-0c1d-7e2f-8a3b-4c5d6e7f8091",
         *       "external_id": "T7-000123",
         *       "register_id": "till-7",
         *       "member_id": "01a2041e-c3d0-747a-8e4d-5ab4abfe6f9b",
         *       "status": "completed",
         *       "line_items": [
         *         {
         *           "sku": "PASTA-1",
         *           "name": "Carbonara",
         *           "category": null,
         *           "quantity": 1,
         *           "unit_price": 900,
         *           "amount": 900,
         *           "earns_cashback": true,
         *           "payable_with_cashback": true,
         *           "cashback_percent": 5,
         *           "redeemed": 300,
         *           "earned": 30,
         *           "rule_source": "default"
         *         },
         *         {
         *           "sku": null,
         *           "name": "House wine",
         *           "category": null,
         *           "quantity": 1,
         *           "unit_price": 600,
         *           "amount": 600,
         *           "earns_cashback": true,
         *           "payable_with_cashback": true,
         *           "cashback_percent": 5,
         *           "redeemed": 200,
         *           "earned": 20,
         *           "rule_source": "default"
         *         }
         *       ],
         *       "campaigns": [],
         *       "subtotal": 1500,
         *       "discount_amount": 0,
         *       "redeemed": 500,
         *       "earned": 50,
         *       "earn_capped": false,
         *       "stamps_earned": 0,
         *       "paid": 1000,
         *       "refunded_amount": 0,
         *       "refundable": 1000,
         *       "closed_at": "2026-11-22T12:41:07.000+00:00",
         *       "hold_id": null,
         *       "livemode": true,
         *       "created_at": "2026-11-22T12:41:08.214+00:00",
         *       "display": {
         *         "cashier": "Anna K. · Member 5% · available €12.40 · up to €12.40 payable",
         *         "receipt": [
         *           "Cashback used: −€5.00",
         *           "Cashback earned: +€0.50",
         *           "To pay: €10.00",
         *           "Cashback available: €7.90",
         *           "Level: Member 5%"
         *         ]
         *       },
         *       "source": "api",
         *       "metadata": null
         *     }
         */
        Transaction: {
            /** @enum {string} */
            object: "transaction";
            /** Format: uuid */
            id: string;
            /**
             * Format: uuid
             * @description The venue where it happened (D21).
             */
            venue_id: string;
            external_id: string;
            register_id: string | null;
            member_id: string | null;
            status: "completed" | "voided";
            line_items: components["schemas"]["CalculatedLine"][];
            /** @description What each campaign credits besides `earned` (D22), as it reaches the balance; [] when none applies. */
            campaigns: components["schemas"]["CheckCampaignCredit"][];
            subtotal: number;
            discount_amount: number;
            redeemed: number;
            earned: number;
            earn_capped: boolean;
            stamps_earned: number;
            paid: number;
            refunded_amount: number;
            /** @description What can still be refunded; 0 once voided. */
            refundable: number;
            closed_at: string | null;
            hold_id: string | null;
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
            /** @description Ready text in the venue's locale and currency. */
            display: {
                /** @description One line for the cashier screen. */
                cashier: string;
                /** @description Lines to print on the receipt. */
                receipt: string[];
            };
            /** @description Who sent the check: the API (a till or a script), or a point-of-sale connector (D26). */
            source: "api" | "square" | "toast";
            /** @description A connector's own ids for the check (Square's payment, order and location; Toast's check and order); null from the API. */
            metadata: {
                [key: string]: string;
            } | null;
        };
        /** Hold */
        Hold: {
            /** @enum {string} */
            object: "hold";
            /** Format: uuid */
            id: string;
            /**
             * Format: uuid
             * @description The venue where it happened (D21).
             */
            venue_id: string;
            /** Format: uuid */
            member_id: string;
            amount: number;
            status: "active" | "captured" | "released" | "expired";
            /** Format: date-time */
            expires_at: string;
            /** @description What the check redeemed; the rest went back. */
            captured_amount: number | null;
            /** @description The external_id of the check that captured it. */
            captured_by: string | null;
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
            /** @description Ready text in the venue's locale and currency. */
            display: {
                /** @description One line for the cashier screen. */
                cashier: string;
                /** @description Lines to print on the receipt. */
                receipt: string[];
            };
        };
        /**
         * MemberExport
         * @description Everything the chain holds about the member, at all of its venues, as one document. After an erasure: what the chain keeps, anonymised.
         */
        MemberExport: {
            /** @enum {string} */
            object: "member_export";
            /** Format: date-time */
            exported_at: string;
            member: {
                /** Format: uuid */
                id: string;
                /** @description The venue where the member enrolled; null when they came in without one. */
                home_venue_id: string | null;
                /** Format: uuid */
                program_id: string;
                serial: string;
                name: string | null;
                phone: string | null;
                email: string | null;
                vip_level: string | null;
                birthday: string | null;
                referral_code: string | null;
                /** @description The member whose referral code they enrolled with. */
                referred_by: string | null;
                /** @description The members who enrolled with their referral code. */
                referred: string[];
                /** Format: date-time */
                consented_at: string;
                /** Format: date-time */
                created_at: string;
                erased_at: string | null;
                livemode: boolean;
                /** @description The sums of the ledger below. */
                totals: {
                    cashback: number;
                    spend: number;
                    visits: number;
                    stamps: number;
                };
                cards: {
                    card_number: string;
                    /** Format: date-time */
                    created_at: string;
                }[];
            };
            /** @description The wallet cards: empty after an erasure, which unregisters them. */
            wallet: {
                /** @description The Apple Wallet pass's registrations, one per device: when, never which device (with Apple's id for a device anyone can list every pass on it, since Apple's serial list asks no credential) nor its push token. */
                apple_devices: {
                    /** Format: date-time */
                    registered_at: string;
                    /** Format: date-time */
                    renewed_at: string;
                }[];
                /** @description When the Google Wallet object was made (its save link first given); null: never. */
                google_object_since: string | null;
            };
            /** @description Every entry that moved the totals, newest first. */
            ledger: components["schemas"]["HistoryEntry"][];
            /** @description Checks applied to the member, with their lines: venue by venue (the chain's oldest first), newest first at each. */
            transactions: components["schemas"]["Transaction"][];
            /** @description Refunds of the member's checks, newest first. */
            refunds: {
                /** Format: uuid */
                id: string;
                external_id: string;
                /** Format: uuid */
                transaction_id: string;
                transaction_external_id: string;
                amount: number;
                /** @description Earned cashback taken back. */
                earned_reversed: number;
                /** @description Redeemed cashback given back. */
                redeemed_returned: number;
                livemode: boolean;
                /** Format: date-time */
                created_at: string;
            }[];
            /** @description Venue by venue (the chain's oldest first), newest first at each. */
            holds: components["schemas"]["Hold"][];
            /** @description The ledger entries of kind visit, newest first. */
            visits: {
                /** Format: uuid */
                id: string;
                venue_id: string | null;
                external_id: string | null;
                visits: number;
                stamps: number;
                /** Format: date-time */
                created_at: string;
            }[];
            /** @description Scans of the member's card: venue by venue (the chain's oldest first), newest first at each. */
            scans: {
                /** Format: uuid */
                id: string;
                /**
                 * Format: uuid
                 * @description The venue of the chain where it happened (D21).
                 */
                venue_id: string;
                /** @description The API key that scanned the card. */
                key_id: string;
                /** Format: date-time */
                created_at: string;
            }[];
            /** @description Events whose payload names the member, at every venue of the chain, newest first. */
            events: components["schemas"]["Event"][];
        };
        /** MemberErasure */
        MemberErasure: {
            /** @enum {string} */
            object: "member_erasure";
            /** Format: uuid */
            member_id: string;
            /** Format: date-time */
            erased_at: string;
            /** @description True when an earlier request erased the member; nothing changed now. */
            already_erased: boolean;
            /** @description Active holds released first. */
            holds_released: string[];
            livemode: boolean;
        };
        /** MemberImport */
        MemberImport: {
            /** @enum {string} */
            object: "member_import";
            /** Format: uuid */
            id: string;
            status: "pending" | "running" | "succeeded" | "failed";
            format: "csv" | "jsonl";
            /** Format: uuid */
            program_id: string;
            /** @description Lines of the file after a CSV file's header. */
            total_lines: number | null;
            /** @description Of those, the lines done so far. */
            processed: number;
            /** @description Members created. */
            imported: number;
            /** @description Good lines whose card number the chain had already (imported before). */
            skipped: number;
            /** @description Bad lines: see errors. */
            failed: number;
            /** @description Bad lines after errors_after (default: from the start), at most 100, in file order. */
            errors: {
                /** @description The file's line, from 1; a CSV file's header is line 1. */
                line: number;
                reason: string;
            }[];
            /** @description More bad lines follow: ask again with errors_after set to the last line shown. */
            has_more_errors: boolean;
            /** @description Why the whole file was refused (status failed), e.g. its header. */
            failure: string | null;
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
            finished_at: string | null;
        };
        /** Dish */
        Dish: {
            /** @enum {string} */
            object: "dish";
            /** Format: uuid */
            id: string;
            external_id: string;
            name: string;
            description: string | null;
            category: string | null;
            price: number;
            available: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** DishList */
        DishList: {
            /** @enum {string} */
            object: "list";
            url: string;
            has_more: boolean;
            data: components["schemas"]["Dish"][];
        };
        /** DeletedDish */
        DeletedDish: {
            /** @enum {string} */
            object: "dish";
            external_id: string;
            /** @enum {boolean} */
            deleted: true;
        };
        /** BulkDish */
        BulkDish: {
            /** @description The caller's SKU. */
            external_id: string;
            name: string;
            description?: string | null;
            category?: string | null;
            /** @description Minor units of the venue currency. */
            price: number;
            /**
             * @description false puts the dish on the stop list.
             * @default true
             */
            available: boolean;
        };
        /** MenuSync */
        MenuSync: {
            /** @enum {string} */
            object: "menu_sync";
            created: number;
            updated: number;
            unchanged: number;
            removed: number;
        };
        /** OrderItem */
        OrderItem: {
            external_id: string;
            name: string;
            quantity: number;
            /** @description The menu's price when the order was placed. */
            unit_price: number;
            amount: number;
            note: string | null;
        };
        /** Order */
        Order: {
            /** @enum {string} */
            object: "order";
            /** Format: uuid */
            id: string;
            table_code: string;
            table_name: string;
            /**
             * Format: uuid
             * @description The venue whose table ordered.
             */
            venue_id: string;
            /** @description new, accepted, rejected, preparing, ready, served, closed, cancelled */
            status: string;
            status_reason: string | null;
            items: components["schemas"]["OrderItem"][];
            subtotal: number;
            comment: string | null;
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** OrderList */
        OrderList: {
            /** @enum {string} */
            object: "list";
            url: string;
            has_more: boolean;
            data: components["schemas"]["Order"][];
        };
        /** Product */
        Product: {
            /** @enum {string} */
            object: "product";
            /** Format: uuid */
            id: string;
            sku: string;
            name: string;
            category: string | null;
            price: number | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** ProductList */
        ProductList: {
            /** @enum {string} */
            object: "list";
            url: string;
            has_more: boolean;
            data: components["schemas"]["Product"][];
        };
        /** DeletedProduct */
        DeletedProduct: {
            /** @enum {string} */
            object: "product";
            sku: string;
            /** @enum {boolean} */
            deleted: true;
        };
        /** BulkProduct */
        BulkProduct: {
            /** @description The SKU. */
            sku: string;
            name: string;
            category?: string | null;
            /** @description Minor units; informational. */
            price?: number | null;
        };
        /** CatalogSync */
        CatalogSync: {
            /** @enum {string} */
            object: "catalog_sync";
            created: number;
            updated: number;
            unchanged: number;
        };
        /** Category */
        Category: {
            /** @enum {string} */
            object: "category";
            /** Format: uuid */
            id: string;
            external_id: string;
            name: string;
            /** @description Lines of this category earn cashback. Owner only. */
            earns_cashback: boolean;
            /** @description Lines of this category can be paid with cashback. Owner only. */
            payable_with_cashback: boolean;
            /** @description The category's own earning percent; null: the member's level percent. Owner only. */
            cashback_percent: number | null;
            /** @description Venues of the chain with a rule of their own for this category, which wins there over the chain's (D21). Owner only. */
            venue_rules: {
                /** Format: uuid */
                venue_id: string;
                /** @description Lines of this category earn cashback. Owner only. */
                earns_cashback: boolean;
                /** @description Lines of this category can be paid with cashback. Owner only. */
                payable_with_cashback: boolean;
                /** @description The category's own earning percent; null: the member's level percent. Owner only. */
                cashback_percent: number | null;
            }[];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** CategoryList */
        CategoryList: {
            /** @enum {string} */
            object: "list";
            url: string;
            has_more: boolean;
            data: components["schemas"]["Category"][];
        };
        /** Campaign */
        Campaign: {
            /** @enum {string} */
            object: "campaign";
            /** Format: uuid */
            id: string;
            type: "bonus" | "welcome" | "birthday" | "referral";
            /** @description ended also once ends_at has passed. */
            status: "active" | "paused" | "ended";
            /** @description What it has credited, less what reversals gave back. */
            spent: number;
            /** @description The mode of the key that created it: it credits members of that mode only. */
            livemode: boolean;
            name: string;
            venue_ids: string[] | null;
            starts_at: string | null;
            ends_at: string | null;
            budget: number | null;
            max_per_member: number | null;
            schedule: {
                /** @description ISO days of the week the window starts on: Monday = 1 … Sunday = 7. */
                days_of_week: number[];
                /** @description Start, HH:MM in the venue’s local time (included). */
                from: string;
                /** @description End, HH:MM (excluded); earlier than `from` when the window passes midnight, which then belongs to the day it starts. */
                to: string;
            } | null;
            percent: number | null;
            stamps_multiplier: number | null;
            categories: string[] | null;
            min_check_amount: number | null;
            amount: number | null;
            stamps: number | null;
            referrer_amount: number | null;
            referee_amount: number | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** CampaignList */
        CampaignList: {
            /** @enum {string} */
            object: "list";
            url: string;
            has_more: boolean;
            data: components["schemas"]["Campaign"][];
        };
        /** CampaignResults */
        CampaignResults: {
            /** @enum {string} */
            object: "campaign_results";
            /** Format: uuid */
            campaign_id: string;
            /**
             * Format: date-time
             * @description When it started: starts_at, else its creation.
             */
            from: string;
            /** @description When it ended (ends_at, or when it was ended by hand); null: it still runs. */
            to: string | null;
            /** @description Credits given (a referral counts each side), taken back or not. */
            credits: number;
            /** @description What they came to, less what voids and refunds took back: `spent`, in the campaign’s unit. */
            credited: number;
            /** @description Members who were given at least one credit. */
            members_reached: number;
            /** @description Checks the members reached closed while it ran, at its venues (voided ones not counted). */
            checks: number;
            /** @description What those checks were paid, less refunds, in minor units. */
            spend: number;
        };
        /** CheckCalculation */
        CheckCalculation: {
            /** @enum {string} */
            object: "check_calculation";
            member_id: string | null;
            program_type: string | null;
            subtotal: number;
            /** @description Visit-discount and VIP programs: the member's discount on the subtotal. */
            discount_amount: number;
            /** @description The sum of the lines that can be paid with cashback. */
            payable_base: number;
            /** @description The most cashback this check can be paid with. */
            max_redeem: number;
            redeemed: number;
            /** @description Cashback the check would earn, after caps. */
            earned: number;
            /** @description A per-check or per-day cap lowered earned. */
            earn_capped: boolean;
            stamps_earned: number;
            /** @description subtotal − discount_amount − redeemed: what total_spend would grow by. */
            paid: number;
            balance_after: number | null;
            available_after: number | null;
            line_items: components["schemas"]["CalculatedLine"][];
            /** @description What each campaign credits besides `earned` (D22), as it reaches the balance; [] when none applies. */
            campaigns: components["schemas"]["CheckCampaignCredit"][];
            /** @description Ready text in the venue's locale and currency. */
            display: {
                /** @description One line for the cashier screen. */
                cashier: string;
                /** @description Lines to print on the receipt. */
                receipt: string[];
            };
        };
        /** TransactionList */
        TransactionList: {
            /** @enum {string} */
            object: "list";
            url: string;
            has_more: boolean;
            data: components["schemas"]["Transaction"][];
        };
        /** Refund */
        Refund: {
            /** @enum {string} */
            object: "refund";
            /** Format: uuid */
            id: string;
            external_id: string;
            amount: number;
            /** @description Earned cashback taken back. */
            earned_reversed: number;
            /** @description Redeemed cashback given back. */
            redeemed_returned: number;
            /** @description What it took back of each campaign credit of the check (D22), in its unit. */
            campaigns_reversed: components["schemas"]["CheckCampaignCredit"][];
            transaction: components["schemas"]["Transaction"];
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
            /** @description Ready text in the venue's locale and currency. */
            display: {
                /** @description One line for the cashier screen. */
                cashier: string;
                /** @description Lines to print on the receipt. */
                receipt: string[];
            };
        };
        /** Visit */
        Visit: {
            /** @enum {string} */
            object: "visit";
            /** Format: uuid */
            id: string;
            /**
             * Format: uuid
             * @description The venue where it happened (D21).
             */
            venue_id: string;
            external_id: string | null;
            /** Format: uuid */
            member_id: string;
            stamps_earned: number;
            member: components["schemas"]["Member"];
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
            /** @description Ready text in the venue's locale and currency. */
            display: {
                /** @description One line for the cashier screen. */
                cashier: string;
                /** @description Lines to print on the receipt. */
                receipt: string[];
            };
        };
        /** Scan */
        Scan: {
            /** @enum {string} */
            object: "scan";
            /** Format: uuid */
            id: string;
            member: components["schemas"]["Member"];
            /** Format: date-time */
            created_at: string;
            /** @description Ready text in the venue's locale and currency. */
            display: {
                /** @description One line for the cashier screen. */
                cashier: string;
                /** @description Lines to print on the receipt. */
                receipt: string[];
            };
        };
        /** VenueLiability */
        VenueLiability: {
            /** @description The venue; null: what belongs to no venue (imports and a chain key's adjustments made without venue_id). */
            venue_id: string | null;
            /** @description Cashback earned at checks of the venue, less what voids and refunds there took back. Minor units. */
            earned: number;
            /** @description Campaign credits (D22): welcome and birthday credits at the venue of the enrolment or the home venue. Minor units. */
            campaign: number;
            /** @description Cashback spent at checks of the venue, less what voids and refunds there gave back; positive. Minor units. */
            redeemed: number;
            /** @description Cashback earned at the venue that expired (charged to where it was earned, whenever it expired); positive. Minor units. */
            expired: number;
            /** @description Manual adjustments made at the venue (by its key, or a chain key naming it), signed. Minor units. */
            adjusted: number;
            /** @description Opening balances of member imports sent at the venue. Minor units. */
            imported: number;
            /** @description earned + campaign + adjusted + imported − redeemed − expired: what the row adds to what members hold. Minor units. */
            net: number;
        };
        /** VenueLiabilityList */
        VenueLiabilityList: {
            /** @enum {string} */
            object: "list";
            url: string;
            has_more: boolean;
            data: components["schemas"]["VenueLiability"][];
        };
        /** AuditEvent */
        AuditEvent: {
            /** @enum {string} */
            object: "audit_event";
            /** Format: uuid */
            id: string;
            /** @description What was done: api_key.created, api_key.updated, api_key.revoked, member.adjusted, member.exported, members.exported, member.erased, member.card_link_renewed, member.pass_revoked, transaction.refunded, transaction.voided, program.created, program.updated, campaign.created, campaign.updated, category_rule.updated, table.created, dish.created, dish.updated, dish.deleted, product.created, product.updated, product.deleted, webhook_endpoint.created, webhook_endpoint.updated, webhook_endpoint.deleted, webhook_endpoint.event_resent, user.invited, user.invitation_withdrawn, user.created, user.role_changed, user.venues_changed, user.removed, user.reset_requested, user.password_reset, user.password_changed, user.password_change_refused, chain.merged, venue.created, venue.updated, brand.updated, member.updated, sign_in.failed, access.denied, integration.created, integration.updated, integration.deleted. */
            action: string;
            /** @description Who did it. */
            actor: {
                type: "user" | "api_key" | "cli" | "system" | "integration";
                /** @description The dashboard user's or API key's id; null for the CLI and the service itself. */
                id: string | null;
            };
            /** @description What it was done to. */
            target: {
                /** @description member, api_key, program, campaign, category, webhook_endpoint, user… */
                type: string;
                /** @description Its id (a category: its external id). */
                id: string | null;
            };
            /** @description Each changed field as [before, after] (null where it had none); never a secret or personal data. */
            changes: {
                [key: string]: unknown[];
            };
            /** @description Where it was done; null for the chain as a whole. */
            venue_id: string | null;
            /** @description The IP address the request came from; null for the CLI and the service. */
            address: string | null;
            /** Format: date-time */
            created_at: string;
        };
        /** AuditEventList */
        AuditEventList: {
            /** @enum {string} */
            object: "list";
            url: string;
            has_more: boolean;
            data: components["schemas"]["AuditEvent"][];
        };
        /** Integration */
        Integration: {
            /** @enum {string} */
            object: "integration";
            /** Format: uuid */
            id: string;
            livemode: boolean;
            /** Format: date-time */
            created_at: string;
            provider: "square" | "toast";
            name: string;
            /** @description paused: the provider is answered, nothing is applied. */
            status: "active" | "paused";
            /** @description The provider's location (Square) or restaurant external id (Toast) → a venue of the chain. */
            locations: {
                [key: string]: string;
            };
            /** @description The connection's own register rules (D12), over each venue's. */
            rules: {
                /** @description Cashback is redeemed only by capturing a hold. */
                redeem_only_via_holds?: boolean;
                /** @description external_id is unique per register_id, which is then required. */
                checks_numbered_per_register?: boolean;
                /** @description Checks whose closed_at is older are refused (check_too_old); null for no limit. */
                max_check_age_seconds?: number | null;
                /** @description Most cashback one check earns, in minor units; null for no cap. */
                max_cashback_per_check?: number | null;
                /** @description Most cashback a member earns per day (venue's time zone), in minor units; null for no cap. */
                max_cashback_per_day?: number | null;
                /** @description A check needs a card this key scanned shortly before. */
                card_scan_required?: boolean;
                /** @description Balance adjustments through the API are allowed. */
                manual_adjustments_allowed?: boolean;
                /** @description Lifetime of a hold before it expires. */
                hold_ttl_seconds?: number;
            };
            /** @description Secrets shown as …last4; they are never shown whole after they are set. */
            settings: {
                [key: string]: string;
            };
            /** @description The URL to paste into the provider's dashboard. */
            endpoint_url: string;
            /** @description Since when calls to the provider keep failing; null when they do not. */
            failing_since: string | null;
        };
        /** IntegrationList */
        IntegrationList: {
            /** @enum {string} */
            object: "list";
            url: string;
            has_more: boolean;
            data: components["schemas"]["Integration"][];
        };
        /** DeletedIntegration */
        DeletedIntegration: {
            /** @enum {string} */
            object: "integration";
            /** Format: uuid */
            id: string;
            /** @enum {boolean} */
            deleted: true;
        };
        /** IntegrationLogEntry */
        IntegrationLogEntry: {
            /** @enum {string} */
            object: "integration_log_entry";
            /** Format: uuid */
            id: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description What the provider sent or was asked, as `<provider>.<what>` (square.payment, toast.accrue). */
            kind: string;
            /**
             * @description queued and waiting are still to be done; provider_error is retried with backoff, failed is not (try again re-queues it).
             * @enum {string}
             */
            outcome: "queued" | "waiting" | "applied" | "refunded" | "reversed" | "replayed" | "ignored" | "unmatched_guest" | "ambiguous_guest" | "unknown_location" | "bad_signature" | "bad_payload" | "provider_error" | "failed";
            /** @description The outcome in words: what was applied, or why nothing was. */
            message: string | null;
            /** @description The provider's own ids: event, payment, order, refund, location; Toast's transaction GUID. */
            provider_ids: {
                [key: string]: string;
            };
            attempts: number;
            next_attempt_at: string | null;
            venue_id: string | null;
            transaction_id: string | null;
            /** @description Whether "try again" (POST …/log/{entry_id}/retry) can queue it again. */
            retryable: boolean;
        };
        /** IntegrationLogEntryList */
        IntegrationLogEntryList: {
            /** @enum {string} */
            object: "list";
            url: string;
            has_more: boolean;
            data: components["schemas"]["IntegrationLogEntry"][];
        };
        /** TransactionCompletedEvent */
        TransactionCompletedEvent: components["schemas"]["Event"] & {
            /** @constant */
            type: "transaction.completed";
            data: {
                object: components["schemas"]["Transaction"] | components["schemas"]["Visit"];
            };
        };
        /** TransactionUpdatedEvent */
        TransactionUpdatedEvent: components["schemas"]["Event"] & {
            /** @constant */
            type: "transaction.updated";
            data: {
                object: components["schemas"]["Transaction"];
            };
        };
        /** TransactionRefundedEvent */
        TransactionRefundedEvent: components["schemas"]["Event"] & {
            /** @constant */
            type: "transaction.refunded";
            data: {
                object: components["schemas"]["Transaction"];
            };
        };
        /** BalanceAdjustedEvent */
        BalanceAdjustedEvent: components["schemas"]["Event"] & {
            /** @constant */
            type: "balance.adjusted";
            data: {
                object: components["schemas"]["Adjustment"];
            };
        };
        /** CashbackExpiringEvent */
        CashbackExpiringEvent: components["schemas"]["Event"] & {
            /** @constant */
            type: "cashback.expiring";
            data: {
                object: Record<string, never>;
            };
        };
        /** CashbackExpiredEvent */
        CashbackExpiredEvent: components["schemas"]["Event"] & {
            /** @constant */
            type: "cashback.expired";
            data: {
                object: Record<string, never>;
            };
        };
        /** MemberErasedEvent */
        MemberErasedEvent: components["schemas"]["Event"] & {
            /** @constant */
            type: "member.erased";
            data: {
                object: components["schemas"]["MemberErasure"];
            };
        };
        /** MemberLevelChangedEvent */
        MemberLevelChangedEvent: components["schemas"]["Event"] & {
            /** @constant */
            type: "member.level_changed";
            data: {
                object: components["schemas"]["LevelChange"];
            };
        };
        /** CampaignBudgetExhaustedEvent */
        CampaignBudgetExhaustedEvent: components["schemas"]["Event"] & {
            /** @constant */
            type: "campaign.budget_exhausted";
            data: {
                object: components["schemas"]["Campaign"];
            };
        };
        /** OrderCreatedEvent */
        OrderCreatedEvent: components["schemas"]["Event"] & {
            /** @constant */
            type: "order.created";
            data: {
                object: components["schemas"]["Order"];
            };
        };
        /** IntegrationFailingEvent */
        IntegrationFailingEvent: components["schemas"]["Event"] & {
            /** @constant */
            type: "integration.failing";
            data: {
                object: components["schemas"]["Integration"];
            };
        };
        /** TestPingEvent */
        TestPingEvent: components["schemas"]["Event"] & {
            /** @constant */
            type: "test.ping";
            data: {
                object: components["schemas"]["WebhookEndpoint"];
            };
        };
        /** LevelChange */
        LevelChange: {
            /** @constant */
            object: "level_change";
            /** Format: uuid */
            member_id: string;
            /** Format: uuid */
            program_id: string;
            /** @description The level the member was at. */
            from: string;
            /** @description The level the member is at now. */
            to: string;
            /** @description spend: a check (or a hold captured into one); refund, void: of a check; period: old spend left the level window; manual: a VIP level set or cleared by hand. */
            reason: "spend" | "refund" | "void" | "period" | "manual";
            /** @description The spend the level is judged on, after the change. */
            level_spend: number;
            /** @description The check's external_id (spend, void) or the refund's (refund); null otherwise. */
            reference: string | null;
            /** Format: date-time */
            created_at: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Id of the last object of the previous page. */
                starting_after?: string;
                livemode?: boolean;
                /** @description A venue of the chain (D21): a chain key's filter; a venue key may name its own venue only. */
                venue_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointList"];
                };
            };
            /** @description parameter_invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description Public HTTPS URL.
                     */
                    url: string;
                    /** @description Event types to receive: transaction.completed, transaction.updated, transaction.refunded, balance.adjusted, cashback.expiring, cashback.expired, member.erased, member.level_changed, campaign.budget_exhausted, order.created, integration.failing, test.ping, or "*" for all (also types added later). */
                    events?: string[];
                    description?: string;
                    /**
                     * Format: uuid
                     * @description A venue of the chain (D21): a chain key's filter; a venue key may name its own venue only.
                     */
                    venue_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description webhook_endpoint_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedWebhookEndpoint"];
                };
            };
            /** @description idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description webhook_endpoint_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description Public HTTPS URL.
                     */
                    url?: string;
                    /** @description Event types to receive: transaction.completed, transaction.updated, transaction.refunded, balance.adjusted, cashback.expiring, cashback.expired, member.erased, member.level_changed, campaign.budget_exhausted, order.created, integration.failing, test.ping, or "*" for all (also types added later). */
                    events?: string[];
                    description?: string | null;
                    /** @description true re-enables a disabled endpoint; false disables it. */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description webhook_endpoint_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    testWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookTest"];
                };
            };
            /** @description idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description webhook_endpoint_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Id of the last object of the previous page. */
                starting_after?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryAttemptList"];
                };
            };
            /** @description parameter_invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description webhook_endpoint_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Id of the last object of the previous page. */
                starting_after?: string;
                type?: string;
                /** @description A venue of the chain (D21): a chain key's filter; a venue key may name its own venue only. */
                venue_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventList"];
                };
            };
            /** @description parameter_invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Event"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description event_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMembers: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Id of the last object of the previous page. */
                starting_after?: string;
                /** @description Any part of a name (every word, accents and case ignored), or exactly a card number, serial, phone number or e-mail address. Exact matches come first. */
                q?: string;
                /** @description newest first (default); name A–Z (no name last); last visit, balance (cashback) or total spend, highest first. */
                sort?: "newest" | "name" | "last_visit" | "balance" | "spend";
                program_id?: string;
                /** @description Members at the level of this name in their program (a VIP level set by hand counts). */
                level?: string;
                /** @description Only the members who enrolled there (home_venue_id); a venue key may name its own venue only. */
                venue_id?: string;
                /** @description Only members whose last visit was at or after this time. */
                last_visit_after?: string;
                /** @description Only members whose last visit was before this time (members who never came are left out). */
                last_visit_before?: string;
                phone?: string;
                livemode?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberList"];
                };
            };
            /** @description parameter_invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope, venue_not_allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    enrolMember: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The venue's own card number. */
                    card_number: string;
                    /**
                     * @description Must be true: the guest agreed to join.
                     * @enum {boolean}
                     */
                    consent: true;
                    /** @description Any usual notation; read with the venue's country. */
                    phone?: string;
                    /** @description An e-mail address (one @, no spaces, at most 254 characters), stored trimmed and lower-cased; unique in the chain. */
                    email?: string;
                    name?: string;
                    /**
                     * Format: uuid
                     * @description Default: the chain's default program.
                     */
                    program_id?: string;
                    birthday?: string | null;
                    /** @description The referral_code of the member who brought this guest (referral campaigns). */
                    referred_by?: string;
                    /**
                     * Format: uuid
                     * @description The venue where this happens (D21): required from a chain key, else its own venue.
                     */
                    venue_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use, card_number_taken, member_email_taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    lookupMember: {
        parameters: {
            query?: {
                card_number?: string;
                /** @description What the scanner read, in any of the three formats. */
                barcode?: string;
                phone?: string;
                /** @description Any case, with or without spaces around it. */
                email?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            /** @description parameter_invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description member_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description member_ambiguous */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description member_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string | null;
                    phone?: string | null;
                    /** @description null clears it. */
                    email?: string | null;
                    vip_level?: string | null;
                    birthday?: string | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description member_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use, member_email_taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    attachCard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The venue's own card number. */
                    card_number: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description member_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use, card_number_taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMemberHistory: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Id of the last object of the previous page. */
                starting_after?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HistoryEntryList"];
                };
            };
            /** @description parameter_invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description member_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMemberActivity: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Id of the last object of the previous page. */
                starting_after?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberActivityList"];
                };
            };
            /** @description parameter_invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description member_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMemberBarcode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description SVG image */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/svg+xml": string;
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description member_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adjustCashback: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Signed, minor units; not zero. */
                    amount: number;
                    reason: string;
                    /**
                     * Format: uuid
                     * @description A venue of the chain (D21): a chain key's filter; a venue key may name its own venue only.
                     */
                    venue_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Adjustment"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused, redeem_not_supported */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description insufficient_balance */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope, adjustments_disabled */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description member_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use, balance_conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    redeemReward: {
        parameters: {
            query?: {
                /** @description The venue where this happens (D21): required from a chain key, else its own venue. */
                venue_id?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RewardRedemption"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused, redeem_not_supported */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no_reward_available */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description member_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMemberApplePass: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pass (a signed zip archive) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.apple.pkpass": string;
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description member_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description wallet_not_configured */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeMemberApplePass: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PassRevocation"];
                };
            };
            /** @description idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description member_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMemberGoogleWalletLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GoogleWalletLink"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description member_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description wallet_not_configured */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMemberCardLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CardLink"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description member_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    renewMemberCardLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CardLink"];
                };
            };
            /** @description idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description member_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    exportMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Everything the chain holds about the member, at all of its venues, as one document. After an erasure: what the chain keeps, anonymised. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberExport"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description member_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    eraseMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberErasure"];
                };
            };
            /** @description idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description member_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createMemberImport: {
        parameters: {
            query?: {
                /** @description Default: the chain's default program. */
                program_id?: string;
                /** @description A venue of the chain (D21): a chain key's filter; a venue key may name its own venue only. */
                venue_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "text/csv": string;
                "application/x-ndjson": string;
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberImport"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMemberImport: {
        parameters: {
            query?: {
                /** @description Show bad lines after this line. */
                errors_after?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberImport"];
                };
            };
            /** @description parameter_invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description member_import_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listDishes: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Id of the last object of the previous page. */
                starting_after?: string;
                available?: boolean;
                category?: string;
                /** @description The venue where this happens (D21): required from a chain key, else its own venue. */
                venue_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DishList"];
                };
            };
            /** @description parameter_invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDish: {
        parameters: {
            query?: {
                /** @description The venue where this happens (D21): required from a chain key, else its own venue. */
                venue_id?: string;
            };
            header?: never;
            path: {
                /** @description The caller's SKU. */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dish"];
                };
            };
            /** @description parameter_invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description dish_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putDish: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The caller's SKU. */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    description?: string | null;
                    category?: string | null;
                    /** @description Minor units of the venue currency. */
                    price: number;
                    /**
                     * @description false puts the dish on the stop list.
                     * @default true
                     */
                    available?: boolean;
                    /**
                     * Format: uuid
                     * @description The venue where this happens (D21): required from a chain key, else its own venue.
                     */
                    venue_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dish"];
                };
            };
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dish"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteDish: {
        parameters: {
            query?: {
                /** @description The venue where this happens (D21): required from a chain key, else its own venue. */
                venue_id?: string;
            };
            header?: never;
            path: {
                /** @description The caller's SKU. */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedDish"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description dish_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateDish: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The caller's SKU. */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    description?: string | null;
                    category?: string | null;
                    /** @description Minor units of the venue currency. */
                    price?: number;
                    /**
                     * @description false puts the dish on the stop list.
                     * @default true
                     */
                    available?: boolean;
                    /**
                     * Format: uuid
                     * @description The venue where this happens (D21): required from a chain key, else its own venue.
                     */
                    venue_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dish"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description dish_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    syncDishes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Up to 500 dishes, each {external_id, name, description?, category?, price, available?}. */
                    items: components["schemas"]["BulkDish"][];
                    /**
                     * @description true removes every dish not in items.
                     * @default false
                     */
                    replace?: boolean;
                    /**
                     * Format: uuid
                     * @description The venue where this happens (D21): required from a chain key, else its own venue.
                     */
                    venue_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MenuSync"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listOrders: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Id of the last object of the previous page. */
                starting_after?: string;
                status?: "new" | "accepted" | "rejected" | "preparing" | "ready" | "served" | "closed" | "cancelled";
                created_after?: string;
                /** @description A venue of the chain (D21): a chain key's filter; a venue key may name its own venue only. */
                venue_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderList"];
                };
            };
            /** @description parameter_invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOrder: {
        parameters: {
            query?: {
                /** @description The venue where this happens (D21): required from a chain key, else its own venue. */
                venue_id?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description parameter_invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description order_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    moveOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    status: "new" | "accepted" | "rejected" | "preparing" | "ready" | "served" | "closed" | "cancelled";
                    /** @description Shown to staff, e.g. why an order was rejected. */
                    reason?: string;
                    /**
                     * Format: uuid
                     * @description The venue where this happens (D21): required from a chain key, else its own venue.
                     */
                    venue_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description order_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use, invalid_status_transition */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    placeOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                venue_slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    table_code: string;
                    items: {
                        external_id: string;
                        quantity: number;
                        note?: string;
                    }[];
                    comment?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description parameter_invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description menu_not_found, table_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description dish_unavailable */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listProducts: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Id of the last object of the previous page. */
                starting_after?: string;
                category?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductList"];
                };
            };
            /** @description parameter_invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getProduct: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The SKU. */
                sku: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description product_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putProduct: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The SKU. */
                sku: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    category?: string | null;
                    /** @description Minor units; informational. */
                    price?: number | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteProduct: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The SKU. */
                sku: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedProduct"];
                };
            };
            /** @description idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description product_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    uploadProducts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Up to 1000 products, each {sku, name, category?, price?}. */
                    items: components["schemas"]["BulkProduct"][];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CatalogSync"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCategories: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Id of the last object of the previous page. */
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CategoryList"];
                };
            };
            /** @description parameter_invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putCategory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The category's external_id. */
                external_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @description Lines of this category earn cashback. Owner only. */
                    earns_cashback?: boolean;
                    /** @description Lines of this category can be paid with cashback. Owner only. */
                    payable_with_cashback?: boolean;
                    /** @description The category's own earning percent; null: the member's level percent. Owner only. */
                    cashback_percent?: number | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Category"];
                };
            };
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Category"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope, owner_only */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCampaigns: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Id of the last object of the previous page. */
                starting_after?: string;
                type?: "bonus" | "welcome" | "birthday" | "referral";
                livemode?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignList"];
                };
            };
            /** @description parameter_invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createCampaign: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    venue_ids?: string[] | null;
                    starts_at?: string | null;
                    ends_at?: string | null;
                    budget?: number | null;
                    max_per_member?: number | null;
                    schedule?: {
                        /** @description ISO days of the week the window starts on: Monday = 1 … Sunday = 7. */
                        days_of_week: number[];
                        /** @description Start, HH:MM in the venue’s local time (included). */
                        from: string;
                        /** @description End, HH:MM (excluded); earlier than `from` when the window passes midnight, which then belongs to the day it starts. */
                        to: string;
                    } | null;
                    percent?: number | null;
                    stamps_multiplier?: number | null;
                    categories?: string[] | null;
                    min_check_amount?: number | null;
                    amount?: number | null;
                    stamps?: number | null;
                    referrer_amount?: number | null;
                    referee_amount?: number | null;
                    type: "bonus" | "welcome" | "birthday" | "referral";
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Campaign"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope, venue_not_allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description venue_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCampaign: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Campaign"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description campaign_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateCampaign: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    venue_ids?: string[] | null;
                    starts_at?: string | null;
                    ends_at?: string | null;
                    budget?: number | null;
                    max_per_member?: number | null;
                    schedule?: {
                        /** @description ISO days of the week the window starts on: Monday = 1 … Sunday = 7. */
                        days_of_week: number[];
                        /** @description Start, HH:MM in the venue’s local time (included). */
                        from: string;
                        /** @description End, HH:MM (excluded); earlier than `from` when the window passes midnight, which then belongs to the day it starts. */
                        to: string;
                    } | null;
                    percent?: number | null;
                    stamps_multiplier?: number | null;
                    categories?: string[] | null;
                    min_check_amount?: number | null;
                    amount?: number | null;
                    stamps?: number | null;
                    referrer_amount?: number | null;
                    referee_amount?: number | null;
                    /** @description paused stops it, active resumes it; ended is final. */
                    status?: "active" | "paused" | "ended";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Campaign"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope, venue_not_allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description campaign_not_found, venue_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use, invalid_status_transition */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCampaignResults: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignResults"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description campaign_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    calculateCheck: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The till's check number; makes applying idempotent. */
                    external_id?: string;
                    member_id?: string;
                    card_number?: string;
                    barcode?: string;
                    line_items: {
                        /** @description Resolves the line through the catalogue. */
                        sku?: string;
                        name: string;
                        /** @description A category's external_id, when there is no SKU. */
                        category?: string;
                        /** @description Positive, up to 3 decimals (sold by weight). */
                        quantity: number;
                        /** @description Minor units. */
                        unit_price: number;
                    }[];
                    /** @description Cashback to pay with, minor units. */
                    redeem_amount?: number;
                    /** @description Capture this hold: redeem its amount, or a smaller redeem_amount and release the rest. */
                    hold_id?: string;
                    register_id?: string;
                    /** Format: date-time */
                    closed_at?: string;
                    /**
                     * Format: uuid
                     * @description The venue where this happens (D21): required from a chain key, else its own venue.
                     */
                    venue_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "check_calculation",
                     *       "member_id": "01a2041e-c3d0-747a-8e4d-5ab4abfe6f9b",
                     *       "program_type": "cashback",
                     *       "subtotal": 1500,
                     *       "discount_amount": 0,
                     *       "payable_base": 1500,
                     *       "max_redeem": 1240,
                     *       "redeemed": 500,
                     *       "earned": 50,
                     *       "earn_capped": false,
                     *       "stamps_earned": 0,
                     *       "paid": 1000,
                     *       "balance_after": 790,
                     *       "available_after": 790,
                     *       "line_items": [
                     *         {
                     *           "sku": "PASTA-1",
                     *           "name": "Carbonara",
                     *           "category": null,
                     *           "quantity": 1,
                     *           "unit_price": 900,
                     *           "amount": 900,
                     *           "earns_cashback": true,
                     *           "payable_with_cashback": true,
                     *           "cashback_percent": 5,
                     *           "redeemed": 300,
                     *           "earned": 30,
                     *           "rule_source": "default"
                     *         },
                     *         {
                     *           "sku": null,
                     *           "name": "House wine",
                     *           "category": null,
                     *           "quantity": 1,
                     *           "unit_price": 600,
                     *           "amount": 600,
                     *           "earns_cashback": true,
                     *           "payable_with_cashback": true,
                     *           "cashback_percent": 5,
                     *           "redeemed": 200,
                     *           "earned": 20,
                     *           "rule_source": "default"
                     *         }
                     *       ],
                     *       "campaigns": [],
                     *       "display": {
                     *         "cashier": "Anna K. · Member 5% · available €12.40 · up to €12.40 payable",
                     *         "receipt": [
                     *           "Cashback used: −€5.00",
                     *           "Cashback earned: +€0.50",
                     *           "To pay: €10.00",
                     *           "Cashback available: €7.90",
                     *           "Level: Member 5%"
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["CheckCalculation"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused, register_id_required, check_too_old, hold_required, redeem_not_supported */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description insufficient_balance, redeem_limit_exceeded */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope, scan_required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description member_not_found, hold_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use, hold_expired, hold_captured, hold_released */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    applyCheck: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "external_id": "T7-000123",
                 *       "card_number": "4000123",
                 *       "line_items": [
                 *         {
                 *           "sku": "PASTA-1",
                 *           "name": "Carbonara",
                 *           "quantity": 1,
                 *           "unit_price": 900
                 *         },
                 *         {
                 *           "name": "House wine",
                 *           "category": "alcohol",
                 *           "quantity": 1,
                 *           "unit_price": 600
                 *         }
                 *       ],
                 *       "redeem_amount": 500,
                 *       "register_id": "till-7",
                 *       "closed_at": "2026-11-22T12:41:07.000+00:00"
                 *     }
                 */
                "application/json": {
                    /** @description The till's check number; makes applying idempotent. */
                    external_id: string;
                    member_id?: string;
                    card_number?: string;
                    barcode?: string;
                    line_items: {
                        /** @description Resolves the line through the catalogue. */
                        sku?: string;
                        name: string;
                        /** @description A category's external_id, when there is no SKU. */
                        category?: string;
                        /** @description Positive, up to 3 decimals (sold by weight). */
                        quantity: number;
                        /** @description Minor units. */
                        unit_price: number;
                    }[];
                    /** @description Cashback to pay with, minor units. */
                    redeem_amount?: number;
                    /** @description Capture this hold: redeem its amount, or a smaller redeem_amount and release the rest. */
                    hold_id?: string;
                    register_id?: string;
                    /** Format: date-time */
                    closed_at?: string;
                    /**
                     * Format: uuid
                     * @description The venue where this happens (D21): required from a chain key, else its own venue.
                     */
                    venue_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "transaction",
                     *       "id": "01a2046b-2f1e-7c3a-9d0e-1b2c3d4e5f60",
                     *       "venue_id": "01a20400-0c1d-7e2f-8a3b-4c5d6e7f8091",
                     *       "external_id": "T7-000123",
                     *       "register_id": "till-7",
                     *       "member_id": "01a2041e-c3d0-747a-8e4d-5ab4abfe6f9b",
                     *       "status": "completed",
                     *       "line_items": [
                     *         {
                     *           "sku": "PASTA-1",
                     *           "name": "Carbonara",
                     *           "category": null,
                     *           "quantity": 1,
                     *           "unit_price": 900,
                     *           "amount": 900,
                     *           "earns_cashback": true,
                     *           "payable_with_cashback": true,
                     *           "cashback_percent": 5,
                     *           "redeemed": 300,
                     *           "earned": 30,
                     *           "rule_source": "default"
                     *         },
                     *         {
                     *           "sku": null,
                     *           "name": "House wine",
                     *           "category": null,
                     *           "quantity": 1,
                     *           "unit_price": 600,
                     *           "amount": 600,
                     *           "earns_cashback": true,
                     *           "payable_with_cashback": true,
                     *           "cashback_percent": 5,
                     *           "redeemed": 200,
                     *           "earned": 20,
                     *           "rule_source": "default"
                     *         }
                     *       ],
                     *       "campaigns": [],
                     *       "subtotal": 1500,
                     *       "discount_amount": 0,
                     *       "redeemed": 500,
                     *       "earned": 50,
                     *       "earn_capped": false,
                     *       "stamps_earned": 0,
                     *       "paid": 1000,
                     *       "refunded_amount": 0,
                     *       "refundable": 1000,
                     *       "closed_at": "2026-11-22T12:41:07.000+00:00",
                     *       "hold_id": null,
                     *       "livemode": true,
                     *       "created_at": "2026-11-22T12:41:08.214+00:00",
                     *       "display": {
                     *         "cashier": "Anna K. · Member 5% · available €12.40 · up to €12.40 payable",
                     *         "receipt": [
                     *           "Cashback used: −€5.00",
                     *           "Cashback earned: +€0.50",
                     *           "To pay: €10.00",
                     *           "Cashback available: €7.90",
                     *           "Level: Member 5%"
                     *         ]
                     *       },
                     *       "source": "api",
                     *       "metadata": null
                     *     }
                     */
                    "application/json": components["schemas"]["Transaction"];
                };
            };
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "transaction",
                     *       "id": "01a2046b-2f1e-7c3a-9d0e-1b2c3d4e5f60",
                     *       "venue_id": "01a20400-0c1d-7e2f-8a3b-4c5d6e7f8091",
                     *       "external_id": "T7-000123",
                     *       "register_id": "till-7",
                     *       "member_id": "01a2041e-c3d0-747a-8e4d-5ab4abfe6f9b",
                     *       "status": "completed",
                     *       "line_items": [
                     *         {
                     *           "sku": "PASTA-1",
                     *           "name": "Carbonara",
                     *           "category": null,
                     *           "quantity": 1,
                     *           "unit_price": 900,
                     *           "amount": 900,
                     *           "earns_cashback": true,
                     *           "payable_with_cashback": true,
                     *           "cashback_percent": 5,
                     *           "redeemed": 300,
                     *           "earned": 30,
                     *           "rule_source": "default"
                     *         },
                     *         {
                     *           "sku": null,
                     *           "name": "House wine",
                     *           "category": null,
                     *           "quantity": 1,
                     *           "unit_price": 600,
                     *           "amount": 600,
                     *           "earns_cashback": true,
                     *           "payable_with_cashback": true,
                     *           "cashback_percent": 5,
                     *           "redeemed": 200,
                     *           "earned": 20,
                     *           "rule_source": "default"
                     *         }
                     *       ],
                     *       "campaigns": [],
                     *       "subtotal": 1500,
                     *       "discount_amount": 0,
                     *       "redeemed": 500,
                     *       "earned": 50,
                     *       "earn_capped": false,
                     *       "stamps_earned": 0,
                     *       "paid": 1000,
                     *       "refunded_amount": 0,
                     *       "refundable": 1000,
                     *       "closed_at": "2026-11-22T12:41:07.000+00:00",
                     *       "hold_id": null,
                     *       "livemode": true,
                     *       "created_at": "2026-11-22T12:41:08.214+00:00",
                     *       "display": {
                     *         "cashier": "Anna K. · Member 5% · available €12.40 · up to €12.40 payable",
                     *         "receipt": [
                     *           "Cashback used: −€5.00",
                     *           "Cashback earned: +€0.50",
                     *           "To pay: €10.00",
                     *           "Cashback available: €7.90",
                     *           "Level: Member 5%"
                     *         ]
                     *       },
                     *       "source": "api",
                     *       "metadata": null
                     *     }
                     */
                    "application/json": components["schemas"]["Transaction"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused, register_id_required, check_too_old, hold_required, redeem_not_supported */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description insufficient_balance, redeem_limit_exceeded */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope, scan_required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description member_not_found, hold_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use, hold_expired, hold_captured, hold_released, external_id_reused, balance_conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    captureHold: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The applied check to pay with the hold. */
                    external_id: string;
                    /** @description Default: the hold's amount; the rest is released. */
                    redeem_amount?: number;
                    register_id?: string;
                    /**
                     * Format: uuid
                     * @description The venue where this happens (D21): required from a chain key, else its own venue.
                     */
                    venue_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "transaction",
                     *       "id": "01a2046b-2f1e-7c3a-9d0e-1b2c3d4e5f60",
                     *       "venue_id": "01a20400-0c1d-7e2f-8a3b-4c5d6e7f8091",
                     *       "external_id": "T7-000123",
                     *       "register_id": "till-7",
                     *       "member_id": "01a2041e-c3d0-747a-8e4d-5ab4abfe6f9b",
                     *       "status": "completed",
                     *       "line_items": [
                     *         {
                     *           "sku": "PASTA-1",
                     *           "name": "Carbonara",
                     *           "category": null,
                     *           "quantity": 1,
                     *           "unit_price": 900,
                     *           "amount": 900,
                     *           "earns_cashback": true,
                     *           "payable_with_cashback": true,
                     *           "cashback_percent": 5,
                     *           "redeemed": 300,
                     *           "earned": 30,
                     *           "rule_source": "default"
                     *         },
                     *         {
                     *           "sku": null,
                     *           "name": "House wine",
                     *           "category": null,
                     *           "quantity": 1,
                     *           "unit_price": 600,
                     *           "amount": 600,
                     *           "earns_cashback": true,
                     *           "payable_with_cashback": true,
                     *           "cashback_percent": 5,
                     *           "redeemed": 200,
                     *           "earned": 20,
                     *           "rule_source": "default"
                     *         }
                     *       ],
                     *       "campaigns": [],
                     *       "subtotal": 1500,
                     *       "discount_amount": 0,
                     *       "redeemed": 500,
                     *       "earned": 50,
                     *       "earn_capped": false,
                     *       "stamps_earned": 0,
                     *       "paid": 1000,
                     *       "refunded_amount": 0,
                     *       "refundable": 1000,
                     *       "closed_at": "2026-11-22T12:41:07.000+00:00",
                     *       "hold_id": null,
                     *       "livemode": true,
                     *       "created_at": "2026-11-22T12:41:08.214+00:00",
                     *       "display": {
                     *         "cashier": "Anna K. · Member 5% · available €12.40 · up to €12.40 payable",
                     *         "receipt": [
                     *           "Cashback used: −€5.00",
                     *           "Cashback earned: +€0.50",
                     *           "To pay: €10.00",
                     *           "Cashback available: €7.90",
                     *           "Level: Member 5%"
                     *         ]
                     *       },
                     *       "source": "api",
                     *       "metadata": null
                     *     }
                     */
                    "application/json": components["schemas"]["Transaction"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description insufficient_balance, redeem_limit_exceeded */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description transaction_not_found, hold_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use, hold_expired, hold_captured, hold_released */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTransactions: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Id of the last object of the previous page. */
                starting_after?: string;
                member_id?: string;
                status?: "completed" | "voided";
                /** @description A venue of the chain (D21): a chain key's filter; a venue key may name its own venue only. */
                venue_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransactionList"];
                };
            };
            /** @description parameter_invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTransaction: {
        parameters: {
            query?: {
                /** @description When checks are numbered per register. */
                register_id?: string;
                /** @description The venue where this happens (D21): required from a chain key, else its own venue. */
                venue_id?: string;
            };
            header?: never;
            path: {
                external_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "transaction",
                     *       "id": "01a2046b-2f1e-7c3a-9d0e-1b2c3d4e5f60",
                     *       "venue_id": "01a20400-0c1d-7e2f-8a3b-4c5d6e7f8091",
                     *       "external_id": "T7-000123",
                     *       "register_id": "till-7",
                     *       "member_id": "01a2041e-c3d0-747a-8e4d-5ab4abfe6f9b",
                     *       "status": "completed",
                     *       "line_items": [
                     *         {
                     *           "sku": "PASTA-1",
                     *           "name": "Carbonara",
                     *           "category": null,
                     *           "quantity": 1,
                     *           "unit_price": 900,
                     *           "amount": 900,
                     *           "earns_cashback": true,
                     *           "payable_with_cashback": true,
                     *           "cashback_percent": 5,
                     *           "redeemed": 300,
                     *           "earned": 30,
                     *           "rule_source": "default"
                     *         },
                     *         {
                     *           "sku": null,
                     *           "name": "House wine",
                     *           "category": null,
                     *           "quantity": 1,
                     *           "unit_price": 600,
                     *           "amount": 600,
                     *           "earns_cashback": true,
                     *           "payable_with_cashback": true,
                     *           "cashback_percent": 5,
                     *           "redeemed": 200,
                     *           "earned": 20,
                     *           "rule_source": "default"
                     *         }
                     *       ],
                     *       "campaigns": [],
                     *       "subtotal": 1500,
                     *       "discount_amount": 0,
                     *       "redeemed": 500,
                     *       "earned": 50,
                     *       "earn_capped": false,
                     *       "stamps_earned": 0,
                     *       "paid": 1000,
                     *       "refunded_amount": 0,
                     *       "refundable": 1000,
                     *       "closed_at": "2026-11-22T12:41:07.000+00:00",
                     *       "hold_id": null,
                     *       "livemode": true,
                     *       "created_at": "2026-11-22T12:41:08.214+00:00",
                     *       "display": {
                     *         "cashier": "Anna K. · Member 5% · available €12.40 · up to €12.40 payable",
                     *         "receipt": [
                     *           "Cashback used: −€5.00",
                     *           "Cashback earned: +€0.50",
                     *           "To pay: €10.00",
                     *           "Cashback available: €7.90",
                     *           "Level: Member 5%"
                     *         ]
                     *       },
                     *       "source": "api",
                     *       "metadata": null
                     *     }
                     */
                    "application/json": components["schemas"]["Transaction"];
                };
            };
            /** @description parameter_invalid, register_id_required */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description transaction_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    voidTransaction: {
        parameters: {
            query?: {
                /** @description When checks are numbered per register. */
                register_id?: string;
                /** @description The venue where this happens (D21): required from a chain key, else its own venue. */
                venue_id?: string;
            };
            header?: never;
            path: {
                external_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "transaction",
                     *       "id": "01a2046b-2f1e-7c3a-9d0e-1b2c3d4e5f60",
                     *       "venue_id": "01a20400-0c1d-7e2f-8a3b-4c5d6e7f8091",
                     *       "external_id": "T7-000123",
                     *       "register_id": "till-7",
                     *       "member_id": "01a2041e-c3d0-747a-8e4d-5ab4abfe6f9b",
                     *       "status": "completed",
                     *       "line_items": [
                     *         {
                     *           "sku": "PASTA-1",
                     *           "name": "Carbonara",
                     *           "category": null,
                     *           "quantity": 1,
                     *           "unit_price": 900,
                     *           "amount": 900,
                     *           "earns_cashback": true,
                     *           "payable_with_cashback": true,
                     *           "cashback_percent": 5,
                     *           "redeemed": 300,
                     *           "earned": 30,
                     *           "rule_source": "default"
                     *         },
                     *         {
                     *           "sku": null,
                     *           "name": "House wine",
                     *           "category": null,
                     *           "quantity": 1,
                     *           "unit_price": 600,
                     *           "amount": 600,
                     *           "earns_cashback": true,
                     *           "payable_with_cashback": true,
                     *           "cashback_percent": 5,
                     *           "redeemed": 200,
                     *           "earned": 20,
                     *           "rule_source": "default"
                     *         }
                     *       ],
                     *       "campaigns": [],
                     *       "subtotal": 1500,
                     *       "discount_amount": 0,
                     *       "redeemed": 500,
                     *       "earned": 50,
                     *       "earn_capped": false,
                     *       "stamps_earned": 0,
                     *       "paid": 1000,
                     *       "refunded_amount": 0,
                     *       "refundable": 1000,
                     *       "closed_at": "2026-11-22T12:41:07.000+00:00",
                     *       "hold_id": null,
                     *       "livemode": true,
                     *       "created_at": "2026-11-22T12:41:08.214+00:00",
                     *       "display": {
                     *         "cashier": "Anna K. · Member 5% · available €12.40 · up to €12.40 payable",
                     *         "receipt": [
                     *           "Cashback used: −€5.00",
                     *           "Cashback earned: +€0.50",
                     *           "To pay: €10.00",
                     *           "Cashback available: €7.90",
                     *           "Level: Member 5%"
                     *         ]
                     *       },
                     *       "source": "api",
                     *       "metadata": null
                     *     }
                     */
                    "application/json": components["schemas"]["Transaction"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused, register_id_required */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description transaction_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    refundTransaction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                external_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The refund's own id; makes it idempotent. */
                    external_id: string;
                    /** @description Part of what was paid, minor units. */
                    amount: number;
                    register_id?: string;
                    /**
                     * Format: uuid
                     * @description The venue where this happens (D21): required from a chain key, else its own venue.
                     */
                    venue_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refund"];
                };
            };
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refund"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused, register_id_required */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description refund_exceeds_check */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description transaction_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use, external_id_reused */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createHold: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    member_id?: string;
                    card_number?: string;
                    barcode?: string;
                    /** @description Cashback to reserve, minor units. */
                    amount: number;
                    /** @description Seconds; default: the venue's hold_ttl_seconds. */
                    expires_in?: number;
                    /**
                     * Format: uuid
                     * @description The venue where this happens (D21): required from a chain key, else its own venue.
                     */
                    venue_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Hold"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused, redeem_not_supported */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description insufficient_balance */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description member_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHold: {
        parameters: {
            query?: {
                /** @description The venue where this happens (D21): required from a chain key, else its own venue. */
                venue_id?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Hold"];
                };
            };
            /** @description parameter_invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description hold_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    releaseHold: {
        parameters: {
            query?: {
                /** @description The venue where this happens (D21): required from a chain key, else its own venue. */
                venue_id?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Hold"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description hold_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use, hold_captured, hold_released, hold_expired */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    recordVisit: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    member_id?: string;
                    card_number?: string;
                    barcode?: string;
                    /** @description Makes the visit idempotent. */
                    external_id?: string;
                    /**
                     * Format: uuid
                     * @description The venue where this happens (D21): required from a chain key, else its own venue.
                     */
                    venue_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Visit"];
                };
            };
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Visit"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused, visit_not_supported */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope, scan_required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description member_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use, external_id_reused */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resolveScan: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description What the scanner read: a card number or a serial. */
                    code: string;
                    /**
                     * Format: uuid
                     * @description The venue where this happens (D21): required from a chain key, else its own venue.
                     */
                    venue_id?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Scan"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description member_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getVenueLiability: {
        parameters: {
            query: {
                /** @description Start of the period, included: an RFC 3339 date-time with its offset. */
                from: string;
                /** @description End of the period, not included; later than from. */
                to: string;
                /** @description Only live (true) or only test (false) entries; both when not given. */
                livemode?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VenueLiabilityList"];
                };
            };
            /** @description parameter_invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAuditEvents: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Id of the last object of the previous page. */
                starting_after?: string;
                /** @description Only this action. */
                action?: string;
                /** @description Only entries about this object. */
                target_id?: string;
                /** @description Only entries at or after this time. */
                from?: string;
                /** @description Only entries before this time. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEventList"];
                };
            };
            /** @description parameter_invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listIntegrations: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Id of the last object of the previous page. */
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IntegrationList"];
                };
            };
            /** @description parameter_invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    provider: "square" | "toast";
                    name?: string;
                    /** @description The provider's location (Square) or restaurant external id (Toast) → a venue of the chain. */
                    locations?: {
                        [key: string]: string;
                    };
                    rules?: {
                        /** @description Cashback is redeemed only by capturing a hold. */
                        redeem_only_via_holds?: boolean;
                        /** @description external_id is unique per register_id, which is then required. */
                        checks_numbered_per_register?: boolean;
                        /** @description Checks whose closed_at is older are refused (check_too_old); null for no limit. */
                        max_check_age_seconds?: number | null;
                        /** @description Most cashback one check earns, in minor units; null for no cap. */
                        max_cashback_per_check?: number | null;
                        /** @description Most cashback a member earns per day (venue's time zone), in minor units; null for no cap. */
                        max_cashback_per_day?: number | null;
                        /** @description A check needs a card this key scanned shortly before. */
                        card_scan_required?: boolean;
                        /** @description Balance adjustments through the API are allowed. */
                        manual_adjustments_allowed?: boolean;
                        /** @description Lifetime of a hold before it expires. */
                        hold_ttl_seconds?: number;
                    };
                    settings: {
                        /** @description Square: an access token with PAYMENTS_READ, ORDERS_READ and CUSTOMERS_READ. Write-only. */
                        access_token?: string;
                        /** @description Square: the webhook subscription's signature key. Write-only. */
                        webhook_signature_key?: string;
                        /** @description Toast: the static API key Toast sends in Authorization. Write-only. */
                        api_key?: string;
                        /** @description Toast (deprecated JWT form): the PEM public key of Toast's token_key endpoint. */
                        public_key?: string;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Integration"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description venue_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Integration"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description integration_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedIntegration"];
                };
            };
            /** @description idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description integration_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    status?: "active" | "paused";
                    /** @description The provider's location (Square) or restaurant external id (Toast) → a venue of the chain. */
                    locations?: {
                        [key: string]: string;
                    };
                    rules?: {
                        /** @description Cashback is redeemed only by capturing a hold. */
                        redeem_only_via_holds?: boolean;
                        /** @description external_id is unique per register_id, which is then required. */
                        checks_numbered_per_register?: boolean;
                        /** @description Checks whose closed_at is older are refused (check_too_old); null for no limit. */
                        max_check_age_seconds?: number | null;
                        /** @description Most cashback one check earns, in minor units; null for no cap. */
                        max_cashback_per_check?: number | null;
                        /** @description Most cashback a member earns per day (venue's time zone), in minor units; null for no cap. */
                        max_cashback_per_day?: number | null;
                        /** @description A check needs a card this key scanned shortly before. */
                        card_scan_required?: boolean;
                        /** @description Balance adjustments through the API are allowed. */
                        manual_adjustments_allowed?: boolean;
                        /** @description Lifetime of a hold before it expires. */
                        hold_ttl_seconds?: number;
                    };
                    /** @description Only the settings named change. */
                    settings?: {
                        /** @description Square: an access token with PAYMENTS_READ, ORDERS_READ and CUSTOMERS_READ. Write-only. */
                        access_token?: string;
                        /** @description Square: the webhook subscription's signature key. Write-only. */
                        webhook_signature_key?: string;
                        /** @description Toast: the static API key Toast sends in Authorization. Write-only. */
                        api_key?: string;
                        /** @description Toast (deprecated JWT form): the PEM public key of Toast's token_key endpoint. */
                        public_key?: string;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Integration"];
                };
            };
            /** @description parameter_invalid, idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description integration_not_found, venue_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description request_body_too_large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_content_type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listIntegrationLog: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Id of the last object of the previous page. */
                starting_after?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IntegrationLogEntryList"];
                };
            };
            /** @description parameter_invalid */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description integration_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryIntegrationLogEntry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                entry_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IntegrationLogEntry"];
                };
            };
            /** @description idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_missing, api_key_invalid, api_key_revoked */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description missing_scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description integration_not_found, integration_log_entry_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description idempotency_key_in_use, integration_entry_not_retryable */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    receiveTransactionCompletedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TransactionCompletedEvent"];
            };
        };
        responses: {
            /** @description Received. Any other answer, or none within the timeout, is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    receiveTransactionUpdatedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TransactionUpdatedEvent"];
            };
        };
        responses: {
            /** @description Received. Any other answer, or none within the timeout, is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    receiveTransactionRefundedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TransactionRefundedEvent"];
            };
        };
        responses: {
            /** @description Received. Any other answer, or none within the timeout, is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    receiveBalanceAdjustedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BalanceAdjustedEvent"];
            };
        };
        responses: {
            /** @description Received. Any other answer, or none within the timeout, is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    receiveCashbackExpiringEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CashbackExpiringEvent"];
            };
        };
        responses: {
            /** @description Received. Any other answer, or none within the timeout, is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    receiveCashbackExpiredEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CashbackExpiredEvent"];
            };
        };
        responses: {
            /** @description Received. Any other answer, or none within the timeout, is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    receiveMemberErasedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MemberErasedEvent"];
            };
        };
        responses: {
            /** @description Received. Any other answer, or none within the timeout, is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    receiveMemberLevelChangedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MemberLevelChangedEvent"];
            };
        };
        responses: {
            /** @description Received. Any other answer, or none within the timeout, is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    receiveCampaignBudgetExhaustedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CampaignBudgetExhaustedEvent"];
            };
        };
        responses: {
            /** @description Received. Any other answer, or none within the timeout, is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    receiveOrderCreatedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrderCreatedEvent"];
            };
        };
        responses: {
            /** @description Received. Any other answer, or none within the timeout, is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    receiveIntegrationFailingEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IntegrationFailingEvent"];
            };
        };
        responses: {
            /** @description Received. Any other answer, or none within the timeout, is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    receiveTestPingEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TestPingEvent"];
            };
        };
        responses: {
            /** @description Received. Any other answer, or none within the timeout, is retried. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
