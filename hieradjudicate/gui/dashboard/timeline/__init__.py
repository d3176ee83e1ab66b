"""The dashboard's Timeline tab: the figures over time, the dates inside the inputs, and the lead's team over time."""
