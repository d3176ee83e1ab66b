"""The team server in the window: the lead's view and the live follower of other people's decisions."""
