import { useQuery } from '@tanstack/react-query';
import { Skeleton } from 'antd';
import DaysTable from '../../../../components/Attendance/DaysTable.tsx';
import { getPersonDays } from '../api/get-person-days.ts';

/** A report row's days, read when the row is opened. */
export default function PersonDays({ month, staffId }: { month: string; staffId: number }) {
  const found = useQuery({ queryKey: ['people-report-days', month, staffId], queryFn: () => getPersonDays(month, staffId) });
  if (!found.data) return <Skeleton active />;
  return <DaysTable days={found.data.days} testId={`days-${staffId}`} />;
}
