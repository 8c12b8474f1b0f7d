/** French texts, keyed by the English text (see translate.ts). */
export const fr: Record<string, string> = {
  // ── The OpenAPI document and the namespace description ──────────────────────────────────────────
  'Events, venues, organizers, categories and tags of a calendar, compatible with The Events Calendar REST API v1.':
    "Événements, lieux, organisateurs, catégories et étiquettes d'un calendrier, compatible avec l'API REST v1 de The Events Calendar.",
  'Describe the namespace': "Décrire l'espace de noms",
  'The OpenAPI document of this API': 'Le document OpenAPI de cette API',
  'The namespace to describe': "L'espace de noms à décrire",
  'Scope of the description: view and help include every argument, embed leaves them out':
    'Portée de la description : view et help incluent tous les arguments, embed les omet',
  OK: 'OK',
  Created: 'Créé',
  'Invalid or missing parameters': 'Paramètres non valides ou manquants',
  'Authentication needed, or a wrong credential': 'Authentification requise, ou identifiants incorrects',
  'The caller may not do this, or may not see this record':
    "L'appelant n'est pas autorisé à effectuer cette action ou à voir cet enregistrement",
  'No such record, or a page past the end of the list': 'Enregistrement inexistant, ou page au-delà de la fin de la liste',
  'The record is already in the trash': "L'enregistrement est déjà dans la corbeille",
  'The request body is too large': 'Le corps de la requête est trop volumineux',
  'The request body is neither JSON nor form data': 'Le corps de la requête n’est ni du JSON ni un formulaire',
  'Not modified: the copy that If-None-Match or If-Modified-Since names is current (no body)':
    'Non modifié : la copie désignée par If-None-Match ou If-Modified-Since est à jour (pas de corps)',
  'With Accept: text/calendar, the same events as an iCalendar feed (RFC 5545): every match, not paged, up to CAL_FEED_MAX_EVENTS; without date filters it starts 30 days back':
    'Avec Accept: text/calendar, les mêmes événements sous forme de flux iCalendar (RFC 5545) : toutes les correspondances, sans pagination, jusqu’à CAL_FEED_MAX_EVENTS ; sans filtre de date, il commence 30 jours en arrière',

  // ── Parameters shared by every resource ────────────────────────────────────────────────────────
  'The archive page to return': "La page d'archive à renvoyer",
  'The number of records to return on each page': "Le nombre d'enregistrements à renvoyer par page",
  'Slug of the record': "Slug de l'enregistrement",
  'Post status': 'Statut de publication',
  'Post statuses to list, as a CSV string or an array; any means every status but trash':
    'Statuts de publication à lister, sous forme de chaîne CSV ou de tableau ; any désigne tous les statuts sauf trash',
  'Sort direction': 'Ordre de tri',
  'Delete permanently instead of moving to the trash': 'Supprimer définitivement au lieu de placer dans la corbeille',
  'Delete permanently instead of moving to the trash (editors and above)':
    'Supprimer définitivement au lieu de placer dans la corbeille (éditeurs et rôles supérieurs)',
  'Image id, http(s) URL, or an image object as returned (false or 0 removes it)':
    "ID d'image, URL http(s) ou objet image tel que renvoyé par l'API (false ou 0 la retire)",

  // ── Events ─────────────────────────────────────────────────────────────────────────────────────
  'Numeric id of the event': "ID numérique de l'événement",
  'The event title': "Le titre de l'événement",
  'The event slug': "Le slug de l'événement",
  'The event description (HTML); empty clears it': "La description de l'événement (HTML) ; une valeur vide l'efface",
  'The event excerpt (HTML)': "L'extrait de l'événement (HTML)",
  'The event author id': "L'ID de l'auteur de l'événement",
  'The event password': "Le mot de passe de l'événement",
  'The event password; empty removes it': "Le mot de passe de l'événement ; une valeur vide le supprime",
  'The event publication date, in UTC': "La date de publication de l'événement, en UTC",
  'The event publication date, in the site time zone': "La date de publication de l'événement, dans le fuseau horaire du site",
  'The event start, wall-clock time in the event time zone':
    "Le début de l'événement, en heure locale du fuseau horaire de l'événement",
  'The event end, wall-clock time in the event time zone':
    "La fin de l'événement, en heure locale du fuseau horaire de l'événement",
  'The event time zone (IANA name or UTC offset); empty for the site time zone':
    "Le fuseau horaire de l'événement (nom IANA ou décalage UTC) ; vide pour le fuseau horaire du site",
  'The event website URL, or empty': "L'URL du site web de l'événement, ou une valeur vide",
  'The event cost: a string like "$10" or "10 - 20 EUR", or an array of them':
    'Le coût de l\'événement : une chaîne comme "$10" ou "10 - 20 EUR", ou un tableau de telles chaînes',
  'Whether the event lasts the whole day': "Indique si l'événement dure toute la journée",
  'Whether the event is featured': "Indique si l'événement est mis en avant",
  'Whether the event is hidden from lists': "Indique si l'événement est masqué dans les listes",
  'Whether the event sticks to the top of calendar views': "Indique si l'événement reste épinglé en haut des vues du calendrier",
  'Whether a map is shown': 'Indique si une carte est affichée',
  'Whether a map link is shown': 'Indique si un lien vers une carte est affiché',
  'A venue id, {id}, or an object of venue fields (created, or the existing duplicate reused); 0 or empty removes it':
    'Un ID de lieu, {id} ou un objet de champs de lieu (créé, ou le doublon existant réutilisé) ; 0 ou une valeur vide le retire',
  'Organizer ids (array or CSV), {id} objects, or objects of organizer fields; empty removes them':
    "ID d'organisateurs (tableau ou CSV), objets {id} ou objets de champs d'organisateur ; une valeur vide les retire",
  'An alias of organizer, used when organizer is not sent':
    "Alias de organizer, utilisé quand organizer n'est pas envoyé",
  'Category ids, slugs or names (unknown names are created), as an array or a CSV string; empty removes all':
    'ID, slugs ou noms de catégories (les noms inconnus sont créés), sous forme de tableau ou de chaîne CSV ; une valeur vide les retire toutes',
  'Tag ids, slugs or names (unknown names are created), as an array or a CSV string; empty removes all':
    "ID, slugs ou noms d'étiquettes (les noms inconnus sont créés), sous forme de tableau ou de chaîne CSV ; une valeur vide les retire toutes",

  // Event list filters
  'Events whose title, description or excerpt contains this text':
    "Événements dont le titre, la description ou l'extrait contient ce texte",
  'Events that start on or after this date (whole day unless strict_dates)':
    'Événements qui commencent à cette date ou après (journée entière, sauf avec strict_dates)',
  'Events that end on or before this date (whole day unless strict_dates)':
    'Événements qui se terminent à cette date ou avant (journée entière, sauf avec strict_dates)',
  'Events that start before this date': 'Événements qui commencent avant cette date',
  'Events that start after this date': 'Événements qui commencent après cette date',
  'Events that end before this date': 'Événements qui se terminent avant cette date',
  'Events that end after this date': 'Événements qui se terminent après cette date',
  'Use the given times as they are instead of whole days':
    'Utiliser les heures indiquées telles quelles plutôt que des journées entières',
  'Events in any of these categories (ids or slugs)': "Événements appartenant à l'une de ces catégories (ID ou slugs)",
  'Events with any of these tags (ids or slugs)': "Événements portant l'une de ces étiquettes (ID ou slugs)",
  'Events at any of these venues': "Événements se déroulant dans l'un de ces lieux",
  'Events with any of these organizers': "Événements ayant l'un de ces organisateurs",
  'Only featured (true) or only not featured (false) events':
    'Uniquement les événements mis en avant (true) ou uniquement ceux qui ne le sont pas (false)',
  'Only these event ids; drops every date filter': "Uniquement ces ID d'événements ; tout filtre de date est ignoré",
  'Shows password-protected events with this password in full':
    'Affiche en entier les événements protégés par ce mot de passe',
  'view, or edit: editors see password-protected events whole':
    'view ou edit : les éditeurs voient en entier les événements protégés par mot de passe',
  'Needs the ticketing module when true': 'Nécessite le module de billetterie si true',

  // ── Venues ─────────────────────────────────────────────────────────────────────────────────────
  'Numeric id of the venue': 'ID numérique du lieu',
  'The venue name': 'Le nom du lieu',
  'The venue slug': 'Le slug du lieu',
  'The venue description (HTML)': 'La description du lieu (HTML)',
  'The venue excerpt (HTML)': "L'extrait du lieu (HTML)",
  'The venue author id': "L'ID de l'auteur du lieu",
  'The venue publication date, in UTC': 'La date de publication du lieu, en UTC',
  'The venue publication date, in the site time zone': 'La date de publication du lieu, dans le fuseau horaire du site',
  'The venue address': "L'adresse du lieu",
  'The venue city': 'La ville du lieu',
  'The venue country': 'Le pays du lieu',
  'The venue province': 'La province du lieu',
  'The venue state': "L'État du lieu",
  'The venue state or province': "L'État ou la province du lieu",
  'The venue ZIP or postal code': 'Le code postal du lieu',
  'The venue phone number': 'Le numéro de téléphone du lieu',
  'The venue website URL, or empty': "L'URL du site web du lieu, ou une valeur vide",
  'Whether a map is shown for the venue': 'Indique si une carte du lieu est affichée',
  'Whether a map link is shown for the venue': 'Indique si un lien vers une carte du lieu est affiché',
  'Venues whose name, description or address fields contain every word of this text':
    "Lieux dont le nom, la description ou les champs d'adresse contiennent chaque mot de ce texte",
  'Venues linked to this event': 'Lieux liés à cet événement',
  'true: venues linked from a published, future or private event; false: linked from none':
    'true : lieux liés à un événement publié, planifié ou privé ; false : liés à aucun événement',
  'true: only venues with an event that has not started yet':
    "true : uniquement les lieux ayant un événement qui n'a pas encore commencé",

  // ── Organizers ─────────────────────────────────────────────────────────────────────────────────
  'Numeric id of the organizer': "ID numérique de l'organisateur",
  'The organizer name': "Le nom de l'organisateur",
  'The organizer slug': "Le slug de l'organisateur",
  'The organizer description (HTML)': "La description de l'organisateur (HTML)",
  'The organizer excerpt (HTML)': "L'extrait de l'organisateur (HTML)",
  'The organizer author id': "L'ID de l'auteur de l'organisateur",
  'The organizer publication date, in UTC': "La date de publication de l'organisateur, en UTC",
  'The organizer publication date, in the site time zone':
    "La date de publication de l'organisateur, dans le fuseau horaire du site",
  'The organizer phone number': "Le numéro de téléphone de l'organisateur",
  'The organizer e-mail address': "L'adresse e-mail de l'organisateur",
  'The organizer website URL, or empty': "L'URL du site web de l'organisateur, ou une valeur vide",
  'Organizers whose name, description, phone, e-mail or website contain every word of this text':
    "Organisateurs dont le nom, la description, le téléphone, l'e-mail ou le site web contiennent chaque mot de ce texte",
  'Organizers linked to this event': 'Organisateurs liés à cet événement',
  'true: organizers linked from a published, future or private event; false: linked from none':
    'true : organisateurs liés à un événement publié, planifié ou privé ; false : liés à aucun événement',
  'true: only organizers with an event that has not started yet':
    "true : uniquement les organisateurs ayant un événement qui n'a pas encore commencé",

  // ── Categories and tags ────────────────────────────────────────────────────────────────────────
  'Numeric id of the term': 'ID numérique du terme',
  'Category id or slug': 'ID ou slug de catégorie',
  'Tag id or slug': "ID ou slug d'étiquette",
  'The category name': 'Le nom de la catégorie',
  'The category slug': 'Le slug de la catégorie',
  'The category description': 'La description de la catégorie',
  'The parent category id (0 for none)': "L'ID de la catégorie parente (0 pour aucune)",
  'The tag name': "Le nom de l'étiquette",
  'The tag slug': "Le slug de l'étiquette",
  'The tag description': "La description de l'étiquette",
  'The category attribute to sort by': "L'attribut de catégorie servant au tri",
  'The tag attribute to sort by': "L'attribut d'étiquette servant au tri",
  'Limit to categories whose name or slug contains this text':
    'Limiter aux catégories dont le nom ou le slug contient ce texte',
  'Limit to tags whose name or slug contains this text': 'Limiter aux étiquettes dont le nom ou le slug contient ce texte',
  'Limit to these category ids (a CSV string or an array); `exclude` is then ignored':
    'Limiter à ces ID de catégories (chaîne CSV ou tableau) ; `exclude` est alors ignoré',
  'Limit to these tag ids (a CSV string or an array); `exclude` is then ignored':
    "Limiter à ces ID d'étiquettes (chaîne CSV ou tableau) ; `exclude` est alors ignoré",
  'Leave out these category ids (a CSV string or an array)': 'Exclure ces ID de catégories (chaîne CSV ou tableau)',
  'Leave out these tag ids (a CSV string or an array)': "Exclure ces ID d'étiquettes (chaîne CSV ou tableau)",
  'Limit to children of this category (0: top level)': 'Limiter aux enfants de cette catégorie (0 : premier niveau)',
  'Limit to the categories of this event': 'Limiter aux catégories de cet événement',
  'Limit to the categories of this event (wins over `post`)': 'Limiter aux catégories de cet événement (prioritaire sur `post`)',
  'Limit to the tags of this event': 'Limiter aux étiquettes de cet événement',
  'Limit to the tags of this event (wins over `post`)': 'Limiter aux étiquettes de cet événement (prioritaire sur `post`)',
  'Limit to the category with this slug': 'Limiter à la catégorie ayant ce slug',
  'Limit to the tag with this slug': "Limiter à l'étiquette ayant ce slug",
  'Hide categories not used by any published event': "Masquer les catégories qu'aucun événement publié n'utilise",
  'Hide tags not used by any published event': "Masquer les étiquettes qu'aucun événement publié n'utilise",

  // ── Errors: requests, routes, authentication ───────────────────────────────────────────────────
  'Invalid parameter(s): %s': 'Paramètre(s) non valide(s) : %s',
  'Missing parameter(s): %s': 'Paramètre(s) manquant(s) : %s',
  'Invalid parameter.': 'Paramètre non valide.',
  'Sorry, you are not allowed to do that.': "Désolé, cette action n'est pas autorisée.",
  'No route was found matching the URL and request method.':
    "Aucune route ne correspond à l'URL et à la méthode de la requête.",
  'The specified namespace could not be found.': "L'espace de noms indiqué est introuvable.",
  'The request URL is not valid.': "L'URL de la requête n'est pas valide.",
  'The request URL is too long.': "L'URL de la requête est trop longue.",
  'The request body is too large.': 'Le corps de la requête est trop volumineux.',
  'Unsupported Content-Type.': 'Content-Type non pris en charge.',
  'The request body could not be read.': "Le corps de la requête n'a pas pu être lu.",
  'The database is not available right now; try again shortly.': "La base de données n'est pas disponible pour le moment ; réessayez sous peu.",
  'Internal error (request %s).': 'Erreur interne (requête %s).',
  'The Authorization header is not a Basic or Bearer credential.':
    "L'en-tête Authorization ne contient pas d'identifiants Basic ou Bearer.",
  'The provided password is an invalid application password.':
    "Le mot de passe fourni n'est pas un mot de passe d'application valide.",

  // ── Errors: shared record fields ───────────────────────────────────────────────────────────────
  'No user has this id.': "Aucun utilisateur n'a cet ID.",
  'Only published records can be listed.': 'Seuls les enregistrements publiés peuvent être listés.',
  'Not an image id.': "Ce n'est pas un ID d'image.",
  'Not an image id or an http(s) URL.': "Ni un ID d'image ni une URL http(s).",

  // ── Errors: events ─────────────────────────────────────────────────────────────────────────────
  'Event with ID %s does not exist.': "L'événement d'ID %s n'existe pas.",
  'Event with slug "%s" does not exist.': 'L\'événement de slug "%s" n\'existe pas.',
  'This event is no longer available': "Cet événement n'est plus disponible",
  'The requested event is not accessible': "L'événement demandé n'est pas accessible",
  'The requested event is not accessible without a password': "L'événement demandé n'est pas accessible sans mot de passe",
  'The requested event archive page does not exist': "La page d'archive d'événements demandée n'existe pas",
  'The event is already trashed': "L'événement est déjà dans la corbeille",
  'Filtering by tickets needs the ticketing module, which is not active.':
    "Le filtrage par billets nécessite le module de billetterie, qui n'est pas actif.",
  'The ticketing module is not active.': "Le module de billetterie n'est pas actif.",
  'No event has the id %s.': "Aucun événement n'a l'ID %s.",
  'No venue has the id %s.': "Aucun lieu n'a l'ID %s.",
  'No organizer has the id %s.': "Aucun organisateur n'a l'ID %s.",
  'Each venue needs an id or a name.': 'Chaque lieu doit avoir un ID ou un nom.',
  'Each organizer needs an id or a name.': 'Chaque organisateur doit avoir un ID ou un nom.',
  'Invalid venue data: %s.': 'Données de lieu non valides : %s.',
  'Invalid organizer data: %s.': "Données d'organisateur non valides : %s.",
  'No categories term has the id %s.': "Aucune catégorie n'a l'ID %s.",
  'No tags term has the id %s.': "Aucune étiquette n'a l'ID %s.",
  'No categories term matches "%s".': 'Aucune catégorie ne correspond à "%s".',
  'No tags term matches "%s".': 'Aucune étiquette ne correspond à "%s".',
  'Each categories term needs an id, a slug or a name.': 'Chaque catégorie doit avoir un ID, un slug ou un nom.',
  'Each tags term needs an id, a slug or a name.': 'Chaque étiquette doit avoir un ID, un slug ou un nom.',

  // ── Errors: venues and organizers ──────────────────────────────────────────────────────────────
  'The venue with ID %s does not exist.': "Le lieu d'ID %s n'existe pas.",
  'The venue with slug "%s" does not exist.': 'Le lieu de slug "%s" n\'existe pas.',
  'The organizer with ID %s does not exist.': "L'organisateur d'ID %s n'existe pas.",
  'The organizer with slug "%s" does not exist.': 'L\'organisateur de slug "%s" n\'existe pas.',
  'The requested venue is not accessible.': "Le lieu demandé n'est pas accessible.",
  'The requested organizer is not accessible.': "L'organisateur demandé n'est pas accessible.",
  'The requested venue archive page does not exist.': "La page d'archive de lieux demandée n'existe pas.",
  'The requested organizer archive page does not exist.': "La page d'archive d'organisateurs demandée n'existe pas.",
  'The venue is already trashed.': 'Le lieu est déjà dans la corbeille.',
  'The organizer is already trashed.': "L'organisateur est déjà dans la corbeille.",

  // ── Errors: categories and tags ────────────────────────────────────────────────────────────────
  'Term does not exist.': "Le terme n'existe pas.",
  'Parent term does not exist.': "Le terme parent n'existe pas.",
  'A term with the name provided already exists with this parent.': 'Un terme portant ce nom existe déjà sous ce parent.',
  'A term with the name provided already exists in this taxonomy.': 'Un terme portant ce nom existe déjà dans cette taxonomie.',
  'A category cannot be its own parent or the child of one of its descendants.':
    "Une catégorie ne peut être ni son propre parent ni l'enfant de l'un de ses descendants.",
  'Unknown category id(s): %s.': 'ID de catégorie inconnu(s) : %s.',
  'Unknown tag id(s): %s.': "ID d'étiquette inconnu(s) : %s.",
  'Unknown category id: %s.': 'ID de catégorie inconnu : %s.',
  'Unknown event id: %s.': "ID d'événement inconnu : %s.",
  'The requested term archive page does not exist.': "La page d'archive de termes demandée n'existe pas.",

  // ── The change feed (/changes) ─────────────────────────────────────────────────────────────────
  "Changes up to %s are no longer kept: read the lists again, then follow the feed from the cursor they were read at.":
    "Les modifications jusqu’à %s ne sont plus conservées : relisez les listes, puis suivez le flux à partir du curseur auquel elles ont été lues.",
  "Every change since a cursor, in order, each with its record now or a tombstone (signed-in callers)":
    "Chaque modification depuis un curseur, dans l’ordre, chacune avec son enregistrement actuel ou une pierre tombale (appelants connectés)",
  "The cursor is older than the retention: read the lists again (code rest_changes_cursor_expired)":
    "Le curseur est plus ancien que la durée de conservation : relisez les listes (code rest_changes_cursor_expired)",
  "The cursor of the last change already applied (0, or absent, for the start of the log)":
    "Le curseur de la dernière modification déjà appliquée (0, ou absent, pour le début du journal)",
  "The most changes to return":
    "Le nombre maximal de modifications à renvoyer",
  "The record now, as the API returns it to this caller; null (a tombstone) when it was deleted or this caller may not see it":
    "L’enregistrement actuel, tel que l’API le renvoie à cet appelant ; null (une pierre tombale) s’il a été supprimé ou si cet appelant ne peut pas le voir",

  // ── Lists for incremental readers ──────────────────────────────────────────────────────────────
  "Records modified after this time (UTC unless the value names its offset)":
    "Enregistrements modifiés après ce moment (UTC, sauf si la valeur indique son décalage)",
  "Records modified before this time (UTC unless the value names its offset)":
    "Enregistrements modifiés avant ce moment (UTC, sauf si la valeur indique son décalage)",
  "Sort direction with orderby (default desc, as WordPress)":
    "Sens du tri avec orderby (desc par défaut, comme WordPress)",

  // ── Conditional requests ───────────────────────────────────────────────────────────────────────
  "If-Match names a version the record no longer has: data.current holds the record as it is now (code rest_precondition_failed)":
    "If-Match désigne une version que l’enregistrement n’a plus : data.current contient l’enregistrement tel qu’il est maintenant (code rest_precondition_failed)",
  "The record has changed since you read it: its current version is in data.current.":
    "L’enregistrement a changé depuis votre lecture : sa version actuelle est dans data.current.",

  // ── Webhooks ───────────────────────────────────────────────────────────────────────────────────
  "Deliveries of a subscription, newest first, each with its tries":
    "Les livraisons d’un abonnement, les plus récentes d’abord, chacune avec ses tentatives",
  "Only administrators manage webhooks":
    "Seuls les administrateurs gèrent les webhooks",
  "Only changes of these kinds (empty or absent: all)":
    "Seulement les modifications de ces types (vide ou absent : toutes)",
  "Only events in this category (null: no filter)":
    "Seulement les événements de cette catégorie (null : aucun filtre)",
  "Only these actions (empty or absent: all)":
    "Seulement ces actions (vide ou absent : toutes)",
  "Send a delivery again now, with the same webhook-id":
    "Renvoyer une livraison maintenant, avec le même webhook-id",
  "Subscribe a URL to changes; the answer holds the signing secret, shown only once":
    "Abonner une URL aux modifications ; la réponse contient le secret de signature, affiché une seule fois",
  "The signing secret (Standard Webhooks), shown only in the answer to the create":
    "Le secret de signature (Standard Webhooks), affiché uniquement dans la réponse à la création",
  "The webhook-id header it is sent with, the same on every try":
    "L’en-tête webhook-id avec lequel elle est envoyée, le même à chaque tentative",
  "Webhook subscriptions (administrators)":
    "Abonnements webhook (administrateurs)",
  "Where deliveries are sent (http or https; private and loopback addresses are refused)":
    "L’adresse où les livraisons sont envoyées (http ou https ; les adresses privées et de bouclage sont refusées)",
  "Whether deliveries are sent (re-enabling a disabled subscription resumes its pending deliveries)":
    "Si les livraisons sont envoyées (réactiver un abonnement désactivé reprend ses livraisons en attente)",
  "Numeric id of the webhook subscription":
    "ID numérique de l’abonnement webhook",
  "Numeric id of the delivery":
    "ID numérique de la livraison",
  "The target cannot be used: %s.":
    "La cible ne peut pas être utilisée : %s.",
  "No webhook subscription has this id.":
    "Aucun abonnement webhook n’a cet ID.",
  "This subscription has no delivery with this id.":
    "Cet abonnement n’a aucune livraison avec cet ID.",
  "No category has the id %s.":
    "Aucune catégorie n’a l’ID %s.",

  // ── Rate limits ────────────────────────────────────────────────────────────────────────────────
  "Too many requests from this client: wait for Retry-After":
    "Trop de requêtes de ce client : attendez la durée de Retry-After",
  "The database is not available (down, restarting or full): nothing was stored; try again after Retry-After":
    "La base de données n'est pas disponible (arrêtée, en redémarrage ou pleine) : rien n'a été enregistré ; réessayez après Retry-After",
  "Too many requests: try again in %s seconds.":
    "Trop de requêtes : réessayez dans %s secondes.",
  "Too many failed sign-ins from this address: try again in %s seconds.":
    "Trop de connexions échouées depuis cette adresse : réessayez dans %s secondes.",

  // ── Request parsing ────────────────────────────────────────────────────────────────────────────
  "Text may not contain NUL characters.":
    "Le texte ne peut pas contenir de caractère NUL.",
  "Text must be valid Unicode: it holds an unpaired UTF-16 surrogate.":
    "Le texte doit être de l'Unicode valide : il contient un demi-codet UTF-16 isolé.",

  // ── Geolocation ───────────────────────────────────────────────────────────────────────────────
  "A venue has both coordinates or neither: geo_lat and geo_lng go together.":
    "Un lieu a ses deux coordonnées ou aucune : geo_lat et geo_lng vont ensemble.",
  "geoloc_lat and geoloc_lng go together.":
    "geoloc_lat et geoloc_lng vont ensemble.",
  "geoloc_radius needs geoloc_lat and geoloc_lng.":
    "geoloc_radius nécessite geoloc_lat et geoloc_lng.",
  "Give the box as west,south,east,north in degrees, south not above north.":
    "Donnez la zone sous la forme ouest,sud,est,nord en degrés, le sud pas au-dessus du nord.",
  "geoloc=false finds records without coordinates: it cannot go with a circle or a box.":
    "geoloc=false trouve les enregistrements sans coordonnées : il ne peut aller avec un cercle ou une zone.",
  "orderby=distance needs a centre: geoloc_lat and geoloc_lng.":
    "orderby=distance nécessite un centre : geoloc_lat et geoloc_lng.",
  "The venue latitude in degrees (WGS 84)":
    "La latitude du lieu en degrés (WGS 84)",
  "The venue longitude in degrees (WGS 84)":
    "La longitude du lieu en degrés (WGS 84)",
  "Only records whose venue has coordinates (true), or has none (false)":
    "Seulement les enregistrements dont le lieu a des coordonnées (true), ou n’en a pas (false)",
  "Centre latitude of a circle (with geoloc_lng); each record then carries its distance in km":
    "Latitude du centre d’un cercle (avec geoloc_lng) ; chaque enregistrement porte alors sa distance en km",
  "Centre longitude of a circle (with geoloc_lat)":
    "Longitude du centre d’un cercle (avec geoloc_lat)",
  "Radius of the circle in km (default 25)":
    "Rayon du cercle en km (25 par défaut)",
  "A box west,south,east,north in degrees (GeoJSON order; west > east crosses the antimeridian)":
    "Une zone ouest,sud,est,nord en degrés (ordre GeoJSON ; ouest > est traverse l’antiméridien)",
  "Latitude in degrees (WGS 84), or null":
    "Latitude en degrés (WGS 84), ou null",
  "Longitude in degrees (WGS 84), or null":
    "Longitude en degrés (WGS 84), ou null",
  "Kilometres from the geoloc_lat/geoloc_lng centre (lists with a centre only)":
    "Kilomètres depuis le centre geoloc_lat/geoloc_lng (listes avec un centre seulement)",
  "Kilometres from the geoloc_lat/geoloc_lng centre to the venue (lists with a centre only)":
    "Kilomètres du centre geoloc_lat/geoloc_lng au lieu (listes avec un centre seulement)",
  "Sort by publication date, last modification, title, id, or distance from the geoloc_lat/geoloc_lng centre (default: the list's own order)":
    "Trier par date de publication, dernière modification, titre, ID ou distance au centre geoloc_lat/geoloc_lng (par défaut : l’ordre propre à la liste)",

  // ── Recurrence ────────────────────────────────────────────────────────────────────────────────
  "Unknown or empty rule part \"%s\" in \"%s\".":
    "Partie de règle inconnue ou vide \"%s\" dans \"%s\".",
  "A rule needs FREQ=DAILY, WEEKLY, MONTHLY or YEARLY: \"%s\".":
    "Une règle nécessite FREQ=DAILY, WEEKLY, MONTHLY ou YEARLY : \"%s\".",
  "A rule has UNTIL or COUNT, not both: \"%s\".":
    "Une règle a UNTIL ou COUNT, pas les deux : \"%s\".",
  "Not an RFC 5545 rule: \"%s\" (%s).":
    "Pas une règle RFC 5545 : \"%s\" (%s).",
  "UNTIL is a date (YYYYMMDD) or a time (YYYYMMDDTHHMMSSZ): \"%s\".":
    "UNTIL est une date (YYYYMMDD) ou une heure (YYYYMMDDTHHMMSSZ) : \"%s\".",
  "Dates are YYYY-MM-DD or YYYY-MM-DD HH:MM:SS in the event's time zone: \"%s\".":
    "Les dates sont YYYY-MM-DD ou YYYY-MM-DD HH:MM:SS dans le fuseau horaire de l’évènement : \"%s\".",
  "A recurrence has 1 to %s rules.":
    "Une récurrence a de 1 à %s règles.",
  "A recurrence has at most %s %s.":
    "Une récurrence a au plus %s %s.",
  "These rules take too long to expand: can they ever match (a 30th of February)?":
    "Ces règles sont trop longues à développer : peuvent-elles jamais correspondre (un 30 février) ?",
  "RFC 5545 rules (RRULE values), 1 to 10":
    "Règles RFC 5545 (valeurs RRULE), de 1 à 10",
  "Extra occurrences, YYYY-MM-DD HH:MM:SS (or a date: at the series time) in the event time zone":
    "Occurrences supplémentaires, YYYY-MM-DD HH:MM:SS (ou une date : à l’heure de la série) dans le fuseau de l’évènement",
  "Occurrences left out, the same way; a date alone leaves out that whole day":
    "Occurrences exclues, de la même façon ; une date seule exclut toute la journée",
  "When the event recurs: rules, extra dates and exception dates in the event time zone":
    "Quand l’évènement se répète : règles, dates supplémentaires et dates d’exception dans le fuseau de l’évènement",
  "The first occurrence start, in the event time zone":
    "Le début de la première occurrence, dans le fuseau de l’évènement",
  "The first occurrence end, in the event time zone":
    "La fin de la première occurrence, dans le fuseau de l’évènement",
  "Whether the event is all day":
    "Si l’évènement dure toute la journée",
  "The last start to list (default: 365 days after start_date)":
    "Le dernier début à lister (par défaut : 365 jours après start_date)",
  "The most occurrences to list (at most 1000)":
    "Le nombre maximal d’occurrences à lister (1000 au plus)",
  "How many occurrences are listed":
    "Combien d’occurrences sont listées",
  "True when the limit was reached before the rules or through ended":
    "Vrai quand la limite a été atteinte avant la fin des règles ou de through",
  "Times that do not exist in the zone, exceptions that match nothing, a start off its rule":
    "Heures qui n’existent pas dans le fuseau, exceptions sans correspondance, un début hors de sa règle",
  "The occurrences a recurrence would give an event, with warnings; writes nothing (contributors and above)":
    "Les occurrences qu’une récurrence donnerait à un évènement, avec des avertissements ; n’écrit rien (contributeurs et au-delà)",
  "These rules cannot be expanded: %s":
    "Ces règles ne peuvent pas être développées : %s",
  "A series has at most %s occurrences (CAL_RECURRENCE_MAX_OCCURRENCES): these rules give more by %s.":
    "Une série a au plus %s occurrences (CAL_RECURRENCE_MAX_OCCURRENCES) : ces règles en donnent plus d’ici %s.",
  "An occurrence follows the rules of its series: change them on the series (series.id), or send recurrence_scope=following to start a new series from this occurrence.":
    "Une occurrence suit les règles de sa série : modifiez-les sur la série (series.id), ou envoyez recurrence_scope=following pour commencer une nouvelle série à cette occurrence.",
  "The series event (the occurrences' post_parent)":
    "L’évènement de la série (le post_parent des occurrences)",
  "The start the rules gave this occurrence (RFC 5545 RECURRENCE-ID), event time zone":
    "Le début que les règles ont donné à cette occurrence (RECURRENCE-ID de la RFC 5545), dans le fuseau de l’évènement",
  "Edited on its own: edits of the series leave it alone":
    "Modifiée à part : les modifications de la série ne la touchent pas",
  "Makes the event a recurring series (its occurrences are events whose post_parent is this one); null makes it a single event again":
    "Fait de l’évènement une série récurrente (ses occurrences sont des évènements dont le post_parent est celui-ci) ; null en refait un évènement unique",
  "Updating an occurrence: this one alone (default; it becomes an override), or this and the following (a new series from here)":
    "Modification d’une occurrence : celle-ci seule (par défaut ; elle devient une exception modifiée), ou celle-ci et les suivantes (une nouvelle série à partir d’ici)",
  "Events whose parent is this event (the occurrences of a series)":
    "Événements dont le parent est cet événement (les occurrences d’une série)",
  "Only the first matching event of each recurring series":
    "Seulement le premier évènement correspondant de chaque série récurrente",
  "The series this event is or belongs to; null for a single event":
    "La série que cet évènement est ou à laquelle il appartient ; null pour un évènement unique",
  "A rule part has a value RFC 5545 does not allow: \"%s\" in \"%s\".":
    "Une partie de règle a une valeur que la RFC 5545 n’admet pas : \"%s\" dans \"%s\".",
};
