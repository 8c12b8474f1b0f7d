/** German texts, keyed by the English text (see translate.ts). */
export const de: Record<string, string> = {
  // ── The OpenAPI document and the namespace description ──────────────────────────────────────────
  'Events, venues, organizers, categories and tags of a calendar, compatible with The Events Calendar REST API v1.':
    'Veranstaltungen, Veranstaltungsorte, Veranstalter, Kategorien und Schlagwörter eines Kalenders, kompatibel mit der REST-API v1 von The Events Calendar.',
  'Describe the namespace': 'Namensraum beschreiben',
  'The OpenAPI document of this API': 'Das OpenAPI-Dokument dieser API',
  'The namespace to describe': 'Der zu beschreibende Namensraum',
  'Scope of the description: view and help include every argument, embed leaves them out':
    'Umfang der Beschreibung: view und help enthalten alle Argumente, embed lässt sie weg',
  OK: 'OK',
  Created: 'Erstellt',
  'Invalid or missing parameters': 'Ungültige oder fehlende Parameter',
  'Authentication needed, or a wrong credential': 'Authentifizierung erforderlich oder falsche Anmeldedaten',
  'The caller may not do this, or may not see this record': 'Der Aufrufer darf dies nicht tun oder diesen Datensatz nicht sehen',
  'No such record, or a page past the end of the list': 'Datensatz nicht vorhanden oder Seite hinter dem Ende der Liste',
  'The record is already in the trash': 'Der Datensatz ist bereits im Papierkorb',
  'The request body is too large': 'Der Anfragetext ist zu groß',
  'The request body is neither JSON nor form data': 'Der Anfragetext ist weder JSON noch Formulardaten',
  'Not modified: the copy that If-None-Match or If-Modified-Since names is current (no body)':
    'Nicht geändert: die mit If-None-Match oder If-Modified-Since bezeichnete Kopie ist aktuell (kein Inhalt)',
  'With Accept: text/calendar, the same events as an iCalendar feed (RFC 5545): every match, not paged, up to CAL_FEED_MAX_EVENTS; without date filters it starts 30 days back':
    'Mit Accept: text/calendar dieselben Veranstaltungen als iCalendar-Feed (RFC 5545): alle Treffer, ohne Seiten, bis zu CAL_FEED_MAX_EVENTS; ohne Datumsfilter beginnt er 30 Tage zurück',

  // ── Parameters shared by every resource ────────────────────────────────────────────────────────
  'The archive page to return': 'Die zurückzugebende Archivseite',
  'The number of records to return on each page': 'Die Anzahl der Datensätze pro Seite',
  'Slug of the record': 'Slug des Datensatzes',
  'Post status': 'Veröffentlichungsstatus',
  'Post statuses to list, as a CSV string or an array; any means every status but trash':
    'Aufzulistende Veröffentlichungsstatus als CSV-Zeichenkette oder Array; any steht für alle Status außer trash',
  'Sort direction': 'Sortierrichtung',
  'Delete permanently instead of moving to the trash': 'Endgültig löschen statt in den Papierkorb verschieben',
  'Delete permanently instead of moving to the trash (editors and above)':
    'Endgültig löschen statt in den Papierkorb verschieben (ab der Rolle Redakteur)',
  'Image id, http(s) URL, or an image object as returned (false or 0 removes it)':
    'Bild-ID, http(s)-URL oder ein Bildobjekt, wie es die API zurückgibt (false oder 0 entfernt das Bild)',

  // ── Events ─────────────────────────────────────────────────────────────────────────────────────
  'Numeric id of the event': 'Numerische ID der Veranstaltung',
  'The event title': 'Der Titel der Veranstaltung',
  'The event slug': 'Der Slug der Veranstaltung',
  'The event description (HTML); empty clears it': 'Die Beschreibung der Veranstaltung (HTML); leer löscht sie',
  'The event excerpt (HTML)': 'Der Auszug der Veranstaltung (HTML)',
  'The event author id': 'Die ID des Autors der Veranstaltung',
  'The event password': 'Das Passwort der Veranstaltung',
  'The event password; empty removes it': 'Das Passwort der Veranstaltung; leer entfernt es',
  'The event publication date, in UTC': 'Das Veröffentlichungsdatum der Veranstaltung in UTC',
  'The event publication date, in the site time zone': 'Das Veröffentlichungsdatum der Veranstaltung in der Zeitzone der Website',
  'The event start, wall-clock time in the event time zone':
    'Der Beginn der Veranstaltung als Ortszeit in der Zeitzone der Veranstaltung',
  'The event end, wall-clock time in the event time zone': 'Das Ende der Veranstaltung als Ortszeit in der Zeitzone der Veranstaltung',
  'The event time zone (IANA name or UTC offset); empty for the site time zone':
    'Die Zeitzone der Veranstaltung (IANA-Name oder UTC-Versatz); leer für die Zeitzone der Website',
  'The event website URL, or empty': 'Die Website-URL der Veranstaltung oder leer',
  'The event cost: a string like "$10" or "10 - 20 EUR", or an array of them':
    'Die Kosten der Veranstaltung: eine Zeichenkette wie "$10" oder "10 - 20 EUR" oder ein Array solcher Zeichenketten',
  'Whether the event lasts the whole day': 'Ob die Veranstaltung ganztägig ist',
  'Whether the event is featured': 'Ob die Veranstaltung hervorgehoben ist',
  'Whether the event is hidden from lists': 'Ob die Veranstaltung in Listen ausgeblendet ist',
  'Whether the event sticks to the top of calendar views': 'Ob die Veranstaltung oben in den Kalenderansichten angeheftet bleibt',
  'Whether a map is shown': 'Ob eine Karte angezeigt wird',
  'Whether a map link is shown': 'Ob ein Kartenlink angezeigt wird',
  'A venue id, {id}, or an object of venue fields (created, or the existing duplicate reused); 0 or empty removes it':
    'Eine Veranstaltungsort-ID, {id} oder ein Objekt mit Veranstaltungsortfeldern (wird angelegt oder ein vorhandenes Duplikat wird wiederverwendet); 0 oder leer entfernt den Veranstaltungsort',
  'Organizer ids (array or CSV), {id} objects, or objects of organizer fields; empty removes them':
    'Veranstalter-IDs (Array oder CSV), {id}-Objekte oder Objekte mit Veranstalterfeldern; leer entfernt alle Veranstalter',
  'An alias of organizer, used when organizer is not sent':
    'Alias von organizer, verwendet, wenn organizer nicht gesendet wird',
  'Category ids, slugs or names (unknown names are created), as an array or a CSV string; empty removes all':
    'Kategorie-IDs, -Slugs oder -Namen (unbekannte Namen werden angelegt) als Array oder CSV-Zeichenkette; leer entfernt alle',
  'Tag ids, slugs or names (unknown names are created), as an array or a CSV string; empty removes all':
    'Schlagwort-IDs, -Slugs oder -Namen (unbekannte Namen werden angelegt) als Array oder CSV-Zeichenkette; leer entfernt alle',

  // Event list filters
  'Events whose title, description or excerpt contains this text':
    'Veranstaltungen, deren Titel, Beschreibung oder Auszug diesen Text enthält',
  'Events that start on or after this date (whole day unless strict_dates)':
    'Veranstaltungen, die an oder nach diesem Datum beginnen (ganzer Tag, außer mit strict_dates)',
  'Events that end on or before this date (whole day unless strict_dates)':
    'Veranstaltungen, die an oder vor diesem Datum enden (ganzer Tag, außer mit strict_dates)',
  'Events that start before this date': 'Veranstaltungen, die vor diesem Datum beginnen',
  'Events that start after this date': 'Veranstaltungen, die nach diesem Datum beginnen',
  'Events that end before this date': 'Veranstaltungen, die vor diesem Datum enden',
  'Events that end after this date': 'Veranstaltungen, die nach diesem Datum enden',
  'Use the given times as they are instead of whole days': 'Die angegebenen Uhrzeiten unverändert statt ganzer Tage verwenden',
  'Events in any of these categories (ids or slugs)': 'Veranstaltungen in einer dieser Kategorien (IDs oder Slugs)',
  'Events with any of these tags (ids or slugs)': 'Veranstaltungen mit einem dieser Schlagwörter (IDs oder Slugs)',
  'Events at any of these venues': 'Veranstaltungen an einem dieser Veranstaltungsorte',
  'Events with any of these organizers': 'Veranstaltungen mit einem dieser Veranstalter',
  'Only featured (true) or only not featured (false) events':
    'Nur hervorgehobene (true) oder nur nicht hervorgehobene (false) Veranstaltungen',
  'Only these event ids; drops every date filter': 'Nur diese Veranstaltungs-IDs; alle Datumsfilter entfallen',
  'Shows password-protected events with this password in full':
    'Zeigt mit diesem Passwort geschützte Veranstaltungen vollständig an',
  'view, or edit: editors see password-protected events whole':
    'view oder edit: Redakteure sehen passwortgeschützte Veranstaltungen vollständig',
  'Needs the ticketing module when true': 'Erfordert bei true das Ticketmodul',

  // ── Venues ─────────────────────────────────────────────────────────────────────────────────────
  'Numeric id of the venue': 'Numerische ID des Veranstaltungsorts',
  'The venue name': 'Der Name des Veranstaltungsorts',
  'The venue slug': 'Der Slug des Veranstaltungsorts',
  'The venue description (HTML)': 'Die Beschreibung des Veranstaltungsorts (HTML)',
  'The venue excerpt (HTML)': 'Der Auszug des Veranstaltungsorts (HTML)',
  'The venue author id': 'Die ID des Autors des Veranstaltungsorts',
  'The venue publication date, in UTC': 'Das Veröffentlichungsdatum des Veranstaltungsorts in UTC',
  'The venue publication date, in the site time zone':
    'Das Veröffentlichungsdatum des Veranstaltungsorts in der Zeitzone der Website',
  'The venue address': 'Die Adresse des Veranstaltungsorts',
  'The venue city': 'Die Stadt des Veranstaltungsorts',
  'The venue country': 'Das Land des Veranstaltungsorts',
  'The venue province': 'Die Provinz des Veranstaltungsorts',
  'The venue state': 'Der Bundesstaat des Veranstaltungsorts',
  'The venue state or province': 'Der Bundesstaat oder die Provinz des Veranstaltungsorts',
  'The venue ZIP or postal code': 'Die Postleitzahl des Veranstaltungsorts',
  'The venue phone number': 'Die Telefonnummer des Veranstaltungsorts',
  'The venue website URL, or empty': 'Die Website-URL des Veranstaltungsorts oder leer',
  'Whether a map is shown for the venue': 'Ob eine Karte des Veranstaltungsorts angezeigt wird',
  'Whether a map link is shown for the venue': 'Ob ein Kartenlink zum Veranstaltungsort angezeigt wird',
  'Venues whose name, description or address fields contain every word of this text':
    'Veranstaltungsorte, deren Name, Beschreibung oder Adressfelder jedes Wort dieses Textes enthalten',
  'Venues linked to this event': 'Mit dieser Veranstaltung verknüpfte Veranstaltungsorte',
  'true: venues linked from a published, future or private event; false: linked from none':
    'true: Veranstaltungsorte, die mit einer veröffentlichten, geplanten oder privaten Veranstaltung verknüpft sind; false: mit keiner verknüpft',
  'true: only venues with an event that has not started yet':
    'true: nur Veranstaltungsorte mit einer Veranstaltung, die noch nicht begonnen hat',

  // ── Organizers ─────────────────────────────────────────────────────────────────────────────────
  'Numeric id of the organizer': 'Numerische ID des Veranstalters',
  'The organizer name': 'Der Name des Veranstalters',
  'The organizer slug': 'Der Slug des Veranstalters',
  'The organizer description (HTML)': 'Die Beschreibung des Veranstalters (HTML)',
  'The organizer excerpt (HTML)': 'Der Auszug des Veranstalters (HTML)',
  'The organizer author id': 'Die ID des Autors des Veranstalters',
  'The organizer publication date, in UTC': 'Das Veröffentlichungsdatum des Veranstalters in UTC',
  'The organizer publication date, in the site time zone': 'Das Veröffentlichungsdatum des Veranstalters in der Zeitzone der Website',
  'The organizer phone number': 'Die Telefonnummer des Veranstalters',
  'The organizer e-mail address': 'Die E-Mail-Adresse des Veranstalters',
  'The organizer website URL, or empty': 'Die Website-URL des Veranstalters oder leer',
  'Organizers whose name, description, phone, e-mail or website contain every word of this text':
    'Veranstalter, deren Name, Beschreibung, Telefonnummer, E-Mail-Adresse oder Website jedes Wort dieses Textes enthalten',
  'Organizers linked to this event': 'Mit dieser Veranstaltung verknüpfte Veranstalter',
  'true: organizers linked from a published, future or private event; false: linked from none':
    'true: Veranstalter, die mit einer veröffentlichten, geplanten oder privaten Veranstaltung verknüpft sind; false: mit keiner verknüpft',
  'true: only organizers with an event that has not started yet':
    'true: nur Veranstalter mit einer Veranstaltung, die noch nicht begonnen hat',

  // ── Categories and tags ────────────────────────────────────────────────────────────────────────
  'Numeric id of the term': 'Numerische ID des Begriffs',
  'Category id or slug': 'Kategorie-ID oder -Slug',
  'Tag id or slug': 'Schlagwort-ID oder -Slug',
  'The category name': 'Der Name der Kategorie',
  'The category slug': 'Der Slug der Kategorie',
  'The category description': 'Die Beschreibung der Kategorie',
  'The parent category id (0 for none)': 'Die ID der übergeordneten Kategorie (0 für keine)',
  'The tag name': 'Der Name des Schlagworts',
  'The tag slug': 'Der Slug des Schlagworts',
  'The tag description': 'Die Beschreibung des Schlagworts',
  'The category attribute to sort by': 'Das Kategorieattribut, nach dem sortiert wird',
  'The tag attribute to sort by': 'Das Schlagwortattribut, nach dem sortiert wird',
  'Limit to categories whose name or slug contains this text':
    'Auf Kategorien beschränken, deren Name oder Slug diesen Text enthält',
  'Limit to tags whose name or slug contains this text': 'Auf Schlagwörter beschränken, deren Name oder Slug diesen Text enthält',
  'Limit to these category ids (a CSV string or an array); `exclude` is then ignored':
    'Auf diese Kategorie-IDs beschränken (CSV-Zeichenkette oder Array); `exclude` wird dann ignoriert',
  'Limit to these tag ids (a CSV string or an array); `exclude` is then ignored':
    'Auf diese Schlagwort-IDs beschränken (CSV-Zeichenkette oder Array); `exclude` wird dann ignoriert',
  'Leave out these category ids (a CSV string or an array)': 'Diese Kategorie-IDs auslassen (CSV-Zeichenkette oder Array)',
  'Leave out these tag ids (a CSV string or an array)': 'Diese Schlagwort-IDs auslassen (CSV-Zeichenkette oder Array)',
  'Limit to children of this category (0: top level)': 'Auf Unterkategorien dieser Kategorie beschränken (0: oberste Ebene)',
  'Limit to the categories of this event': 'Auf die Kategorien dieser Veranstaltung beschränken',
  'Limit to the categories of this event (wins over `post`)':
    'Auf die Kategorien dieser Veranstaltung beschränken (hat Vorrang vor `post`)',
  'Limit to the tags of this event': 'Auf die Schlagwörter dieser Veranstaltung beschränken',
  'Limit to the tags of this event (wins over `post`)': 'Auf die Schlagwörter dieser Veranstaltung beschränken (hat Vorrang vor `post`)',
  'Limit to the category with this slug': 'Auf die Kategorie mit diesem Slug beschränken',
  'Limit to the tag with this slug': 'Auf das Schlagwort mit diesem Slug beschränken',
  'Hide categories not used by any published event':
    'Kategorien ausblenden, die von keiner veröffentlichten Veranstaltung verwendet werden',
  'Hide tags not used by any published event': 'Schlagwörter ausblenden, die von keiner veröffentlichten Veranstaltung verwendet werden',

  // ── Errors: requests, routes, authentication ───────────────────────────────────────────────────
  'Invalid parameter(s): %s': 'Ungültige(r) Parameter: %s',
  'Missing parameter(s): %s': 'Fehlende(r) Parameter: %s',
  'Invalid parameter.': 'Ungültiger Parameter.',
  'Sorry, you are not allowed to do that.': 'Diese Aktion ist leider nicht erlaubt.',
  'No route was found matching the URL and request method.':
    'Es wurde keine Route gefunden, die der URL und der Anfragemethode entspricht.',
  'The specified namespace could not be found.': 'Der angegebene Namensraum wurde nicht gefunden.',
  'The request URL is not valid.': 'Die URL der Anfrage ist ungültig.',
  'The request URL is too long.': 'Die URL der Anfrage ist zu lang.',
  'The request body is too large.': 'Der Anfragetext ist zu groß.',
  'Unsupported Content-Type.': 'Nicht unterstützter Content-Type.',
  'The request body could not be read.': 'Der Anfragetext konnte nicht gelesen werden.',
  'The database is not available right now; try again shortly.': 'Die Datenbank ist gerade nicht verfügbar; bitte gleich noch einmal versuchen.',
  'Internal error (request %s).': 'Interner Fehler (Anfrage %s).',
  'The Authorization header is not a Basic or Bearer credential.':
    'Der Authorization-Header enthält keine Basic- oder Bearer-Anmeldedaten.',
  'The provided password is an invalid application password.': 'Das angegebene Passwort ist kein gültiges Anwendungspasswort.',

  // ── Errors: shared record fields ───────────────────────────────────────────────────────────────
  'No user has this id.': 'Es gibt keinen Benutzer mit dieser ID.',
  'Only published records can be listed.': 'Nur veröffentlichte Datensätze können aufgelistet werden.',
  'Not an image id.': 'Keine Bild-ID.',
  'Not an image id or an http(s) URL.': 'Weder eine Bild-ID noch eine http(s)-URL.',

  // ── Errors: events ─────────────────────────────────────────────────────────────────────────────
  'Event with ID %s does not exist.': 'Die Veranstaltung mit der ID %s existiert nicht.',
  'Event with slug "%s" does not exist.': 'Die Veranstaltung mit dem Slug "%s" existiert nicht.',
  'This event is no longer available': 'Diese Veranstaltung ist nicht mehr verfügbar',
  'The requested event is not accessible': 'Die angeforderte Veranstaltung ist nicht zugänglich',
  'The requested event is not accessible without a password': 'Die angeforderte Veranstaltung ist ohne Passwort nicht zugänglich',
  'The requested event archive page does not exist': 'Die angeforderte Archivseite der Veranstaltungen existiert nicht',
  'The event is already trashed': 'Die Veranstaltung ist bereits im Papierkorb',
  'Filtering by tickets needs the ticketing module, which is not active.':
    'Das Filtern nach Tickets erfordert das Ticketmodul, das nicht aktiv ist.',
  'The ticketing module is not active.': 'Das Ticketmodul ist nicht aktiv.',
  'No event has the id %s.': 'Es gibt keine Veranstaltung mit der ID %s.',
  'No venue has the id %s.': 'Es gibt keinen Veranstaltungsort mit der ID %s.',
  'No organizer has the id %s.': 'Es gibt keinen Veranstalter mit der ID %s.',
  'Each venue needs an id or a name.': 'Jeder Veranstaltungsort benötigt eine ID oder einen Namen.',
  'Each organizer needs an id or a name.': 'Jeder Veranstalter benötigt eine ID oder einen Namen.',
  'Invalid venue data: %s.': 'Ungültige Daten des Veranstaltungsorts: %s.',
  'Invalid organizer data: %s.': 'Ungültige Daten des Veranstalters: %s.',
  'No categories term has the id %s.': 'Es gibt keine Kategorie mit der ID %s.',
  'No tags term has the id %s.': 'Es gibt kein Schlagwort mit der ID %s.',
  'No categories term matches "%s".': 'Keine Kategorie entspricht "%s".',
  'No tags term matches "%s".': 'Kein Schlagwort entspricht "%s".',
  'Each categories term needs an id, a slug or a name.': 'Jede Kategorie benötigt eine ID, einen Slug oder einen Namen.',
  'Each tags term needs an id, a slug or a name.': 'Jedes Schlagwort benötigt eine ID, einen Slug oder einen Namen.',

  // ── Errors: venues and organizers ──────────────────────────────────────────────────────────────
  'The venue with ID %s does not exist.': 'Der Veranstaltungsort mit der ID %s existiert nicht.',
  'The venue with slug "%s" does not exist.': 'Der Veranstaltungsort mit dem Slug "%s" existiert nicht.',
  'The organizer with ID %s does not exist.': 'Der Veranstalter mit der ID %s existiert nicht.',
  'The organizer with slug "%s" does not exist.': 'Der Veranstalter mit dem Slug "%s" existiert nicht.',
  'The requested venue is not accessible.': 'Der angeforderte Veranstaltungsort ist nicht zugänglich.',
  'The requested organizer is not accessible.': 'Der angeforderte Veranstalter ist nicht zugänglich.',
  'The requested venue archive page does not exist.': 'Die angeforderte Archivseite der Veranstaltungsorte existiert nicht.',
  'The requested organizer archive page does not exist.': 'Die angeforderte Archivseite der Veranstalter existiert nicht.',
  'The venue is already trashed.': 'Der Veranstaltungsort ist bereits im Papierkorb.',
  'The organizer is already trashed.': 'Der Veranstalter ist bereits im Papierkorb.',

  // ── Errors: categories and tags ────────────────────────────────────────────────────────────────
  'Term does not exist.': 'Der Begriff existiert nicht.',
  'Parent term does not exist.': 'Der übergeordnete Begriff existiert nicht.',
  'A term with the name provided already exists with this parent.':
    'Ein Begriff mit diesem Namen existiert bereits unter diesem übergeordneten Begriff.',
  'A term with the name provided already exists in this taxonomy.': 'Ein Begriff mit diesem Namen existiert bereits in dieser Taxonomie.',
  'A category cannot be its own parent or the child of one of its descendants.':
    'Eine Kategorie kann weder sich selbst übergeordnet noch einer ihrer Unterkategorien untergeordnet sein.',
  'Unknown category id(s): %s.': 'Unbekannte Kategorie-ID(s): %s.',
  'Unknown tag id(s): %s.': 'Unbekannte Schlagwort-ID(s): %s.',
  'Unknown category id: %s.': 'Unbekannte Kategorie-ID: %s.',
  'Unknown event id: %s.': 'Unbekannte Veranstaltungs-ID: %s.',
  'The requested term archive page does not exist.': 'Die angeforderte Archivseite der Begriffe existiert nicht.',

  // ── The change feed (/changes) ─────────────────────────────────────────────────────────────────
  "Changes up to %s are no longer kept: read the lists again, then follow the feed from the cursor they were read at.":
    "Änderungen bis %s werden nicht mehr aufbewahrt: Lesen Sie die Listen erneut und folgen Sie dem Feed ab dem Cursor, zu dem sie gelesen wurden.",
  "Every change since a cursor, in order, each with its record now or a tombstone (signed-in callers)":
    "Jede Änderung seit einem Cursor, der Reihe nach, jede mit ihrem aktuellen Datensatz oder einem Grabstein (angemeldete Aufrufer)",
  "The cursor is older than the retention: read the lists again (code rest_changes_cursor_expired)":
    "Der Cursor ist älter als die Aufbewahrungsdauer: Lesen Sie die Listen erneut (Code rest_changes_cursor_expired)",
  "The cursor of the last change already applied (0, or absent, for the start of the log)":
    "Der Cursor der letzten bereits übernommenen Änderung (0 oder weggelassen für den Anfang des Protokolls)",
  "The most changes to return":
    "Die Höchstzahl der zurückzugebenden Änderungen",
  "The record now, as the API returns it to this caller; null (a tombstone) when it was deleted or this caller may not see it":
    "Der Datensatz jetzt, wie die API ihn diesem Aufrufer liefert; null (ein Grabstein), wenn er gelöscht wurde oder dieser Aufrufer ihn nicht sehen darf",

  // ── Lists for incremental readers ──────────────────────────────────────────────────────────────
  "Records modified after this time (UTC unless the value names its offset)":
    "Datensätze, die nach diesem Zeitpunkt geändert wurden (UTC, sofern der Wert keinen Versatz nennt)",
  "Records modified before this time (UTC unless the value names its offset)":
    "Datensätze, die vor diesem Zeitpunkt geändert wurden (UTC, sofern der Wert keinen Versatz nennt)",
  "Sort direction with orderby (default desc, as WordPress)":
    "Sortierrichtung mit orderby (Standard desc, wie WordPress)",

  // ── Conditional requests ───────────────────────────────────────────────────────────────────────
  "If-Match names a version the record no longer has: data.current holds the record as it is now (code rest_precondition_failed)":
    "If-Match nennt eine Version, die der Datensatz nicht mehr hat: data.current enthält den Datensatz, wie er jetzt ist (Code rest_precondition_failed)",
  "The record has changed since you read it: its current version is in data.current.":
    "Der Datensatz hat sich geändert, seit Sie ihn gelesen haben: seine aktuelle Fassung steht in data.current.",

  // ── Webhooks ───────────────────────────────────────────────────────────────────────────────────
  "Deliveries of a subscription, newest first, each with its tries":
    "Zustellungen eines Abonnements, neueste zuerst, jede mit ihren Versuchen",
  "Only administrators manage webhooks":
    "Nur Administratoren verwalten Webhooks",
  "Only changes of these kinds (empty or absent: all)":
    "Nur Änderungen dieser Arten (leer oder weggelassen: alle)",
  "Only events in this category (null: no filter)":
    "Nur Veranstaltungen dieser Kategorie (null: kein Filter)",
  "Only these actions (empty or absent: all)":
    "Nur diese Aktionen (leer oder weggelassen: alle)",
  "Send a delivery again now, with the same webhook-id":
    "Eine Zustellung jetzt erneut senden, mit derselben webhook-id",
  "Subscribe a URL to changes; the answer holds the signing secret, shown only once":
    "Eine URL für Änderungen abonnieren; die Antwort enthält das Signaturgeheimnis, nur einmal angezeigt",
  "The signing secret (Standard Webhooks), shown only in the answer to the create":
    "Das Signaturgeheimnis (Standard Webhooks), nur in der Antwort auf das Anlegen angezeigt",
  "The webhook-id header it is sent with, the same on every try":
    "Der webhook-id-Header, mit dem sie gesendet wird, bei jedem Versuch derselbe",
  "Webhook subscriptions (administrators)":
    "Webhook-Abonnements (Administratoren)",
  "Where deliveries are sent (http or https; private and loopback addresses are refused)":
    "Wohin Zustellungen gesendet werden (http oder https; private und Loopback-Adressen werden abgelehnt)",
  "Whether deliveries are sent (re-enabling a disabled subscription resumes its pending deliveries)":
    "Ob Zustellungen gesendet werden (ein deaktiviertes Abonnement wieder zu aktivieren setzt seine ausstehenden Zustellungen fort)",
  "Numeric id of the webhook subscription":
    "Numerische ID des Webhook-Abonnements",
  "Numeric id of the delivery":
    "Numerische ID der Zustellung",
  "The target cannot be used: %s.":
    "Das Ziel kann nicht verwendet werden: %s.",
  "No webhook subscription has this id.":
    "Kein Webhook-Abonnement hat diese ID.",
  "This subscription has no delivery with this id.":
    "Dieses Abonnement hat keine Zustellung mit dieser ID.",
  "No category has the id %s.":
    "Keine Kategorie hat die ID %s.",

  // ── Rate limits ────────────────────────────────────────────────────────────────────────────────
  "Too many requests from this client: wait for Retry-After":
    "Zu viele Anfragen dieses Clients: warten Sie die Dauer von Retry-After ab",
  "The database is not available (down, restarting or full): nothing was stored; try again after Retry-After":
    "Die Datenbank ist nicht verfügbar (ausgefallen, im Neustart oder voll): nichts wurde gespeichert; nach Retry-After erneut versuchen",
  "Too many requests: try again in %s seconds.":
    "Zu viele Anfragen: versuchen Sie es in %s Sekunden erneut.",
  "Too many failed sign-ins from this address: try again in %s seconds.":
    "Zu viele fehlgeschlagene Anmeldungen von dieser Adresse: versuchen Sie es in %s Sekunden erneut.",

  // ── Request parsing ────────────────────────────────────────────────────────────────────────────
  "Text may not contain NUL characters.":
    "Text darf keine NUL-Zeichen enthalten.",
  "Text must be valid Unicode: it holds an unpaired UTF-16 surrogate.":
    "Text muss gültiges Unicode sein: er enthält ein ungepaartes UTF-16-Surrogat.",

  // ── Geolocation ───────────────────────────────────────────────────────────────────────────────
  "A venue has both coordinates or neither: geo_lat and geo_lng go together.":
    "Ein Veranstaltungsort hat beide Koordinaten oder keine: geo_lat und geo_lng gehören zusammen.",
  "geoloc_lat and geoloc_lng go together.":
    "geoloc_lat und geoloc_lng gehören zusammen.",
  "geoloc_radius needs geoloc_lat and geoloc_lng.":
    "geoloc_radius erfordert geoloc_lat und geoloc_lng.",
  "Give the box as west,south,east,north in degrees, south not above north.":
    "Geben Sie das Rechteck als west,süd,ost,nord in Grad an, Süden nicht über Norden.",
  "geoloc=false finds records without coordinates: it cannot go with a circle or a box.":
    "geoloc=false findet Einträge ohne Koordinaten: Es lässt sich nicht mit einem Kreis oder Rechteck kombinieren.",
  "orderby=distance needs a centre: geoloc_lat and geoloc_lng.":
    "orderby=distance erfordert einen Mittelpunkt: geoloc_lat und geoloc_lng.",
  "The venue latitude in degrees (WGS 84)":
    "Die Breite des Veranstaltungsorts in Grad (WGS 84)",
  "The venue longitude in degrees (WGS 84)":
    "Die Länge des Veranstaltungsorts in Grad (WGS 84)",
  "Only records whose venue has coordinates (true), or has none (false)":
    "Nur Einträge, deren Veranstaltungsort Koordinaten hat (true) oder keine hat (false)",
  "Centre latitude of a circle (with geoloc_lng); each record then carries its distance in km":
    "Breite des Kreismittelpunkts (mit geoloc_lng); jeder Eintrag trägt dann seine Entfernung in km",
  "Centre longitude of a circle (with geoloc_lat)":
    "Länge des Kreismittelpunkts (mit geoloc_lat)",
  "Radius of the circle in km (default 25)":
    "Radius des Kreises in km (Standard 25)",
  "A box west,south,east,north in degrees (GeoJSON order; west > east crosses the antimeridian)":
    "Ein Rechteck west,süd,ost,nord in Grad (GeoJSON-Reihenfolge; west > ost überquert den Antimeridian)",
  "Latitude in degrees (WGS 84), or null":
    "Breite in Grad (WGS 84) oder null",
  "Longitude in degrees (WGS 84), or null":
    "Länge in Grad (WGS 84) oder null",
  "Kilometres from the geoloc_lat/geoloc_lng centre (lists with a centre only)":
    "Kilometer vom Mittelpunkt geoloc_lat/geoloc_lng (nur Listen mit Mittelpunkt)",
  "Kilometres from the geoloc_lat/geoloc_lng centre to the venue (lists with a centre only)":
    "Kilometer vom Mittelpunkt geoloc_lat/geoloc_lng zum Veranstaltungsort (nur Listen mit Mittelpunkt)",
  "Sort by publication date, last modification, title, id, or distance from the geoloc_lat/geoloc_lng centre (default: the list's own order)":
    "Sortieren nach Veröffentlichungsdatum, letzter Änderung, Titel, ID oder Entfernung vom Mittelpunkt geoloc_lat/geoloc_lng (Standard: die eigene Reihenfolge der Liste)",

  // ── Recurrence ────────────────────────────────────────────────────────────────────────────────
  "Unknown or empty rule part \"%s\" in \"%s\".":
    "Unbekannter oder leerer Regelteil \"%s\" in \"%s\".",
  "A rule needs FREQ=DAILY, WEEKLY, MONTHLY or YEARLY: \"%s\".":
    "Eine Regel braucht FREQ=DAILY, WEEKLY, MONTHLY oder YEARLY: \"%s\".",
  "A rule has UNTIL or COUNT, not both: \"%s\".":
    "Eine Regel hat UNTIL oder COUNT, nicht beides: \"%s\".",
  "Not an RFC 5545 rule: \"%s\" (%s).":
    "Keine RFC-5545-Regel: \"%s\" (%s).",
  "UNTIL is a date (YYYYMMDD) or a time (YYYYMMDDTHHMMSSZ): \"%s\".":
    "UNTIL ist ein Datum (YYYYMMDD) oder eine Zeit (YYYYMMDDTHHMMSSZ): \"%s\".",
  "Dates are YYYY-MM-DD or YYYY-MM-DD HH:MM:SS in the event's time zone: \"%s\".":
    "Daten sind YYYY-MM-DD oder YYYY-MM-DD HH:MM:SS in der Zeitzone der Veranstaltung: \"%s\".",
  "A recurrence has 1 to %s rules.":
    "Eine Wiederholung hat 1 bis %s Regeln.",
  "A recurrence has at most %s %s.":
    "Eine Wiederholung hat höchstens %s %s.",
  "These rules take too long to expand: can they ever match (a 30th of February)?":
    "Diese Regeln brauchen zu lange zum Entfalten: Können sie überhaupt zutreffen (ein 30. Februar)?",
  "RFC 5545 rules (RRULE values), 1 to 10":
    "RFC-5545-Regeln (RRULE-Werte), 1 bis 10",
  "Extra occurrences, YYYY-MM-DD HH:MM:SS (or a date: at the series time) in the event time zone":
    "Zusätzliche Termine, YYYY-MM-DD HH:MM:SS (oder ein Datum: zur Uhrzeit der Serie) in der Zeitzone der Veranstaltung",
  "Occurrences left out, the same way; a date alone leaves out that whole day":
    "Ausgelassene Termine, ebenso; ein Datum allein lässt den ganzen Tag aus",
  "When the event recurs: rules, extra dates and exception dates in the event time zone":
    "Wann sich die Veranstaltung wiederholt: Regeln, zusätzliche und ausgenommene Daten in der Zeitzone der Veranstaltung",
  "The first occurrence start, in the event time zone":
    "Beginn des ersten Termins, in der Zeitzone der Veranstaltung",
  "The first occurrence end, in the event time zone":
    "Ende des ersten Termins, in der Zeitzone der Veranstaltung",
  "Whether the event is all day":
    "Ob die Veranstaltung ganztägig ist",
  "The last start to list (default: 365 days after start_date)":
    "Der letzte aufzulistende Beginn (Standard: 365 Tage nach start_date)",
  "The most occurrences to list (at most 1000)":
    "Die meisten aufzulistenden Termine (höchstens 1000)",
  "How many occurrences are listed":
    "Wie viele Termine aufgelistet sind",
  "True when the limit was reached before the rules or through ended":
    "Wahr, wenn die Grenze vor dem Ende der Regeln oder von through erreicht wurde",
  "Times that do not exist in the zone, exceptions that match nothing, a start off its rule":
    "Zeiten, die es in der Zone nicht gibt, Ausnahmen ohne Treffer, ein Beginn außerhalb seiner Regel",
  "The occurrences a recurrence would give an event, with warnings; writes nothing (contributors and above)":
    "Die Termine, die eine Wiederholung einer Veranstaltung gäbe, mit Warnungen; schreibt nichts (ab Mitwirkenden)",
  "These rules cannot be expanded: %s":
    "Diese Regeln lassen sich nicht entfalten: %s",
  "A series has at most %s occurrences (CAL_RECURRENCE_MAX_OCCURRENCES): these rules give more by %s.":
    "Eine Serie hat höchstens %s Termine (CAL_RECURRENCE_MAX_OCCURRENCES): diese Regeln ergeben mehr bis %s.",
  "An occurrence follows the rules of its series: change them on the series (series.id), or send recurrence_scope=following to start a new series from this occurrence.":
    "Ein Termin folgt den Regeln seiner Serie: ändern Sie sie an der Serie (series.id), oder senden Sie recurrence_scope=following, um mit diesem Termin eine neue Serie zu beginnen.",
  "The series event (the occurrences' post_parent)":
    "Die Veranstaltung der Serie (das post_parent der Termine)",
  "The start the rules gave this occurrence (RFC 5545 RECURRENCE-ID), event time zone":
    "Der Beginn, den die Regeln diesem Termin gaben (RFC 5545 RECURRENCE-ID), in der Zeitzone der Veranstaltung",
  "Edited on its own: edits of the series leave it alone":
    "Einzeln bearbeitet: Änderungen der Serie lassen ihn unberührt",
  "Makes the event a recurring series (its occurrences are events whose post_parent is this one); null makes it a single event again":
    "Macht die Veranstaltung zu einer wiederkehrenden Serie (ihre Termine sind Veranstaltungen mit dieser als post_parent); null macht sie wieder zu einer einzelnen Veranstaltung",
  "Updating an occurrence: this one alone (default; it becomes an override), or this and the following (a new series from here)":
    "Änderung eines Termins: nur dieser (Standard; er wird zur Ausnahme), oder dieser und die folgenden (eine neue Serie ab hier)",
  "Events whose parent is this event (the occurrences of a series)":
    "Veranstaltungen, denen diese Veranstaltung übergeordnet ist (die Termine einer Serie)",
  "Only the first matching event of each recurring series":
    "Nur die erste passende Veranstaltung jeder wiederkehrenden Serie",
  "The series this event is or belongs to; null for a single event":
    "Die Serie, die diese Veranstaltung ist oder zu der sie gehört; null für eine einzelne Veranstaltung",
  "A rule part has a value RFC 5545 does not allow: \"%s\" in \"%s\".":
    "Ein Regelteil hat einen Wert, den RFC 5545 nicht zulässt: \"%s\" in \"%s\".",
};
