"""Projects in the window: the start page, the project dialogs and the actions that open, close and change projects."""
