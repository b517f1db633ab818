"""The players' languages (issue 17): gettext catalogues shared by the window and the command
line. `sim` never imports this: the engine and its JSON game log stay English; the narration
takes a translator passed in by whoever prints it."""
