"""Every change of tournament state, one named function each, in one module per topic.

Views, the API, the demo and tasks call these; none of them writes models directly.
Import a name from the module that defines it (this package re-exports nothing).
From the bottom up (a module imports only modules above it in this list):

- ``errors``: ``TournamentError`` and ``NotAllowed``, what the person is told;
- ``permissions``: staff roles and the ``check_organiser`` / ``check_official`` checks;
- ``common``: the audit entry and the event row lock every topic uses;
- ``decklists``: checking, submitting and locking lists; limited events' decks;
- ``brackets``: the elimination bracket stored on the event;
- ``standings``: results as the pure modules' input, and the standings snapshot;
- ``players``: registering, checking in, dropping and re-adding players;
- ``events``: creating and editing events, and their staff;
- ``starting``: starting an event;
- ``completing``: a round completes once every result is in; the event moves on;
- ``matches``: the match row while a result is recorded (lock, seats, reports);
- ``placements``: pod results (3-4 players), reported or entered;
- ``results``: two-player results, reported or entered, and time called;
- ``pairing``: pairing, re-pairing, swapping and publishing rounds; ``advance``;
- ``engine_results``: games decided by the rules engine.

Each function checks who may act (``check_*``), validates, then changes rows inside one
transaction, writes the audit log for manual changes and announces the change to live
pages after commit. Writes that race are settled by the database: the event row is
locked while a round is paired, the match row while a result is recorded, and unique
constraints back both. Statuses move only along each model's ``TRANSITIONS``
(``set_status``, ``tournaments.models.StatusPipeline``).
"""
