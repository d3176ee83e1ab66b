"""Statistical building blocks shared by the rooms: BCa intervals, the policy for undefined figures, and the statistics of a timeline (a difference before and after a marker, a forecast)."""
